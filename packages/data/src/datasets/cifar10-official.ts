import { InvalidDatasetError } from '@mia/core';
import { concatDecoded, parseCifar10Batch, type DecodedImages } from '../formats/cifar-binary';
import type { ProgressCallback } from '../fetch/progress';
import { readTarGzEntries } from '../fetch/tar-gz-entries';
import { CIFAR10_BINARY_FILES, CIFAR10_HOW_TO_FIX } from './cifar10-pins';

/**
 * Reads the official `cifar-10-binary.tar.gz` (entries `cifar-10-batches-bin/data_batch_N.bin`,
 * `test_batch.bin`) into the pooled order data_batch_1..5, test_batch.
 * @param verifySizes - require 10 000 images per batch. @default true
 * @throws InvalidDatasetError naming the missing or malformed batch.
 */
export async function decodeCifar10BinaryTarball(tarball: string, onProgress?: ProgressCallback, verifySizes = true): Promise<DecodedImages> {
  const parts = new Map<string, DecodedImages>();
  await readTarGzEntries(
    tarball,
    (name) => CIFAR10_BINARY_FILES.some((f) => name.endsWith(`/${f}`) || name === f),
    ({ name, bytes }) => {
      const file = name.split('/').pop()!;
      parts.set(file, parseCifar10Batch(bytes, `${tarball}:${name}`, verifySizes ? 10_000 : undefined));
      onProgress?.({ phase: 'decode', file: 'cifar-10-binary', loaded: parts.size, total: CIFAR10_BINARY_FILES.length });
    },
    CIFAR10_HOW_TO_FIX,
  );
  const missing = CIFAR10_BINARY_FILES.filter((f) => !parts.has(f));
  if (missing.length > 0) throw new InvalidDatasetError(`CIFAR-10: ${tarball} lacks ${missing.join(', ')}; ${CIFAR10_HOW_TO_FIX}`);
  return concatDecoded(CIFAR10_BINARY_FILES.map((f) => parts.get(f)!));
}
