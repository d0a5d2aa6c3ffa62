import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '@mia/core';

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Why a directory cannot be written, in words, from the error code of a failed mkdir or write. */
function reason(code: string | undefined): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a directory';
    case 'ENOENT':
      return 'a parent directory cannot be created';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'no space left';
    default:
      return code ?? 'unknown error';
  }
}

/**
 * Makes sure `dir` exists and this process can create files in it: creates it (and its parents),
 * then writes and removes a probe file.
 * @param what - How the message names the directory, e.g. "the model cache directory".
 * @param hint - What the user can do about it, e.g. which option or variable moves it.
 * @throws InvalidArgumentError naming the directory as not writable, the reason and `hint`.
 */
export async function ensureWritableDirectory(dir: string, what: string, hint?: string): Promise<void> {
  // Named like a store's temporary, so that `mia cache prune` removes one a killed process left.
  const probe = join(dir, `.tmp-write-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '');
  } catch (cause) {
    // Recursive mkdir reports a parent it may not create as ENOENT (not EACCES): name the directory either way.
    throw new InvalidArgumentError(
      `${what} ${dir} is not writable (${reason(errorCode(cause))}: ${errorCode(cause) ?? String(cause)})${hint === undefined ? '' : `; ${hint}`}`,
      { cause },
    );
  }
  await rm(probe, { force: true });
}
