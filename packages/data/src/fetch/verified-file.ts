import { stat, rm } from 'node:fs/promises';
import { InvalidDatasetError } from '@mia/core';
import { digestFile } from './file-digest';
import type { ProgressCallback } from './progress';

/** A pinned file: its expected size and digest. */
export interface PinnedFile {
  /** File name inside the cache directory. */
  readonly name: string;
  /** Size in bytes, when known (checked before the digest). */
  readonly size?: number;
  /** Hex digest. */
  readonly digest: string;
  /** @default 'sha256' */
  readonly algorithm?: 'sha256' | 'md5';
}

/**
 * Checks a file against its pin (size, then digest).
 * @returns true when it matches, false when it is absent.
 * @throws InvalidDatasetError when it exists but differs (`remove: true` deletes it first), naming the file, the expected and the actual digest, and `howToFix`.
 */
export async function verifyPinnedFile(
  path: string,
  pin: PinnedFile,
  options: { onProgress?: ProgressCallback; remove?: boolean; howToFix: string },
): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return false;
  const fail = async (problem: string): Promise<never> => {
    if (options.remove === true) await rm(path, { force: true });
    throw new InvalidDatasetError(`${pin.name} (${path}) ${problem}${options.remove === true ? ' (removed)' : ''}; ${options.howToFix}`);
  };
  if (pin.size !== undefined && info.size !== pin.size) return fail(`must be ${pin.size} bytes, got ${info.size}`);
  const algorithm = pin.algorithm ?? 'sha256';
  const actual = await digestFile(path, algorithm, options.onProgress, info.size);
  if (actual !== pin.digest) return fail(`has ${algorithm} ${actual}, expected ${pin.digest}`);
  return true;
}
