import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { HOST_TAG, isOwnerGone, type ProcessOwner } from '../store/process-owner';

/**
 * The temporary name a file of a run directory is written under before it is renamed into place:
 * `<name>.<12 hex digits>.<host tag>-<pid>.tmp`, unique to one write (`nonce`, random by default)
 * and saying whose it is.
 */
export function temporaryFileName(name: string, nonce = randomBytes(6).toString('hex')): string {
  return `${name}.${nonce}.${HOST_TAG}-${process.pid}.tmp`;
}

// The files the runs and reproductions write (and the commit journal): only their temporary files are
// ever removed, never a user's file that happens to end in `.<number>.tmp`.
const OUTPUT_TEMPORARY =
  /^(?:results\.json|config\.json|report\.md|report\.html|exposure\.csv|reproduction\.json|roc-attacks-\d+\.svg|\.mia-output-set\.json(?:\.apply)?)(?:\.[a-f0-9]{12})?\.(?:([a-f0-9]{8})-)?(\d+)\.tmp$/;

/**
 * The owner of a temporary file of a run's output, from its name: `<output>.<nonce>.<host tag>-<pid>.tmp`,
 * or the older `<output>.<pid>.tmp` (this host); undefined for other names.
 */
export function temporaryFileOwner(name: string): ProcessOwner | undefined {
  const m = OUTPUT_TEMPORARY.exec(name);
  return m === null ? undefined : { host: m[1] ?? HOST_TAG, pid: Number(m[2]) };
}

/**
 * Removes the temporary files (`*.tmp`) in `dir` whose process is gone: what a killed run left
 * while writing its outputs. Files of running processes (and of other hosts) are kept; a directory
 * that cannot be read or written is left as it is (a reader without write access still reads).
 * @returns the names removed.
 */
export async function removeStaleTemporaries(dir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const owner = temporaryFileOwner(name);
    if (owner === undefined || !isOwnerGone(owner)) continue;
    try {
      await rm(join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // not ours to remove (permissions): left for the owner of the directory
    }
  }
  return removed;
}
