import { randomBytes } from 'node:crypto';
import { HOST_TAG, type ProcessOwner } from './process-owner';

/** The folder of a `DirectoryArtifactStore` that holds the per-unit claim files. */
export const CLAIMS_DIR = '.claims';

/** Age after which a temporary directory is stale whoever wrote it (a write takes seconds). */
export const TEMPORARY_MAX_AGE_MS = 3_600_000;

/**
 * The name of a temporary directory of a write (or of an entry being removed):
 * `.tmp-<key prefix>-<host tag>-<pid>-<random>`, so that anyone can tell whose it is.
 */
export function temporaryName(key: string): string {
  return `.tmp-${key.slice(0, 12)}-${HOST_TAG}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** The owner encoded in a temporary directory's name, `undefined` for other names (or the older `.tmp-<key>-<pid>-<random>`). */
export function temporaryOwner(name: string): ProcessOwner | undefined {
  const m = /^\.tmp-[a-f0-9]+-([a-f0-9]{8})-(\d+)-[a-f0-9]+$/.exec(name);
  return m === null ? undefined : { host: m[1]!, pid: Number(m[2]) };
}
