import { randomBytes } from 'node:crypto';
import { link, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { untrackTemporary } from '../store/exit-cleanup';
import { HOST, isOwnerGone } from '../store/process-owner';
import { temporaryFileName } from './stale-temporaries';

/** The commit record of a set being put in place: who, and what to rename and remove, in order. @internal */
export interface OutputSetJournal {
  readonly format: 'mia-output-set-1';
  readonly pid: number;
  readonly host: string;
  readonly nonce: string;
  readonly createdAt: string;
  readonly steps: ReadonlyArray<{ readonly rename: readonly [string, string] } | { readonly remove: string }>;
}

/** The journal's name in a run directory; it exists only while (or after an interrupted) commit. */
export const OUTPUT_SET_JOURNAL = '.mia-output-set.json';
/** Held by whoever completes an interrupted commit, so that only one process does. */
const APPLY_LOCK = `${OUTPUT_SET_JOURNAL}.apply`;

/** A journal or lock older than this is abandoned whoever wrote it (a commit takes milliseconds). */
export const ABANDONED_AFTER_MS = 600_000;

export const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** Reads a JSON file with its age; `value` is undefined when it is not (yet) valid JSON; undefined when there is no file. */
async function readJson<T>(path: string): Promise<{ value?: T; modifiedMs: number } | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    try {
      return { value: JSON.parse(text) as T, modifiedMs: info.mtimeMs };
    } catch {
      return { modifiedMs: info.mtimeMs };
    }
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** The journal of `dir`: undefined without one; `journal` undefined when it cannot be read as one. */
export async function readJournal(dir: string): Promise<{ journal?: OutputSetJournal; modifiedMs: number } | undefined> {
  const found = await readJson<OutputSetJournal>(join(dir, OUTPUT_SET_JOURNAL));
  if (found === undefined) return undefined;
  const ok = found.value?.format === 'mia-output-set-1' && Array.isArray(found.value.steps);
  return ok ? { journal: found.value!, modifiedMs: found.modifiedMs } : { modifiedMs: found.modifiedMs };
}

/** Creates `path` holding `text` only if it does not exist, all at once (a hard link of a finished file). */
export async function createExclusive(path: string, text: string): Promise<boolean> {
  const scratch = join(path, '..', temporaryFileName(basename(path)));
  await writeFile(scratch, text);
  try {
    await link(scratch, path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    if (!['EPERM', 'ENOTSUP', 'ENOSYS'].includes(errorCode(error) ?? '')) throw error;
    // No hard links here: exclusive create (a reader may see it empty for a moment, and waits).
    return writeFile(path, text, { flag: 'wx' }).then(
      () => true,
      (e: unknown) => {
        if (errorCode(e) === 'EEXIST') return false;
        throw e;
      },
    );
  } finally {
    await unlink(scratch).catch(() => undefined);
  }
}

/** Renames and removes what the journal lists, skipping what is done already (idempotent), then drops it. */
export async function applyJournal(dir: string, journal: OutputSetJournal, onStep?: (step: string) => void | Promise<void>): Promise<void> {
  for (const step of journal.steps) {
    if ('rename' in step) {
      const [from, to] = step.rename;
      try {
        await rename(join(dir, from), join(dir, to));
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error; // renamed before the interruption
      }
      untrackTemporary(join(dir, from));
      await onStep?.(`renamed ${to}`);
    } else {
      await rm(join(dir, step.remove), { force: true });
      await onStep?.(`removed ${step.remove}`);
    }
  }
  await unlink(join(dir, OUTPUT_SET_JOURNAL)).catch((error: unknown) => {
    if (errorCode(error) !== 'ENOENT') throw error;
  });
}

interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly nonce: string;
}

/**
 * Takes the lock on completing `dir`'s interrupted commit, taking over a lock whose process is gone
 * (moved aside in one rename and put back if it turns out to be a newer one). Returns its release,
 * or undefined when a live process holds it.
 */
export async function takeApplyLock(dir: string): Promise<(() => Promise<void>) | undefined> {
  const path = join(dir, APPLY_LOCK);
  const holder: LockHolder = { pid: process.pid, host: HOST, nonce: randomBytes(6).toString('hex') };
  for (let attempt = 0; attempt < 8; attempt += 1) {
    if (await createExclusive(path, JSON.stringify(holder)))
      return async () => {
        if ((await readJson<LockHolder>(path))?.value?.nonce === holder.nonce) await unlink(path).catch(() => undefined);
      };
    const seen = await readJson<LockHolder>(path);
    if (seen === undefined) continue;
    const gone = seen.value === undefined ? Date.now() - seen.modifiedMs > 10_000 : isOwnerGone(seen.value);
    if (!gone && Date.now() - seen.modifiedMs <= ABANDONED_AFTER_MS) return undefined;
    const aside = join(dir, temporaryFileName(APPLY_LOCK, holder.nonce));
    if (
      !(await rename(path, aside).then(
        () => true,
        () => false,
      ))
    )
      continue;
    const moved = await readJson<LockHolder>(aside);
    if (moved?.value?.nonce !== seen.value?.nonce) await link(aside, path).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
  }
  return undefined;
}
