import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A temporary path next to `path` (same directory, so the final rename is atomic). */
export function temporaryPathFor(path: string): string {
  return `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Writes `parts` to `path` atomically: into a temporary file in the same directory, then `rename`.
 * Readers never see a half-written file; on failure the temporary file is removed.
 */
export async function writeFileAtomic(path: string, parts: readonly Uint8Array[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = temporaryPathFor(path);
  try {
    await writeFile(tmp, parts);
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** Moves a finished temporary file into place, removing it if the move fails. */
export async function commitFile(tmp: string, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
