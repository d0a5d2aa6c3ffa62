import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MiaError } from '@mia/core';
import { trackTemporary, untrackTemporary } from '../store/exit-cleanup';
import { HOST, isOwnerGone } from '../store/process-owner';
import { ABANDONED_AFTER_MS, applyJournal, createExclusive, OUTPUT_SET_JOURNAL, readJournal, takeApplyLock, type OutputSetJournal } from './output-set-journal';
import { removeStaleTemporaries, temporaryFileName } from './stale-temporaries';

export { OUTPUT_SET_JOURNAL } from './output-set-journal';

/** One file of an output set: its name in the directory and its content. */
export interface OutputFile {
  readonly name: string;
  readonly content: string | Uint8Array;
}

/** Options of {@link writeOutputSet}. */
export interface WriteOutputSetOptions {
  /** Files of an older set that the new one does not have (removed in the same commit). */
  readonly remove?: readonly string[];
  /** How long to wait for another process that is replacing the same set. @default 60000 */
  readonly waitMs?: number;
  /** @internal Called after each step of the commit (tests simulate a crash there). */
  readonly onStep?: (step: string) => void | Promise<void>;
}

const POLL_MS = 50;
/** Commits this process has in progress (their journals are not abandoned). */
const committing = new Set<string>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a journal will never be finished by its writer: its process is gone, or it is too old. */
function isAbandoned(journal: OutputSetJournal, modifiedMs: number): boolean {
  if (Date.now() - modifiedMs > ABANDONED_AFTER_MS) return true;
  if (journal.pid === process.pid && journal.host === HOST) return !committing.has(journal.nonce);
  return isOwnerGone({ pid: journal.pid, host: journal.host });
}

/**
 * Brings a run directory to one complete set of outputs: an interrupted commit (a journal whose
 * process is gone) is completed, so the directory holds the new set whole; a commit in progress in
 * another process is waited for; temporary files (`*.tmp`) of processes that are gone are removed.
 * Readers of a run directory call it before reading, writers before writing.
 * @throws MiaError naming the directory when another process's commit does not end within
 *   `waitMs`, when the journal is unreadable, or when an interrupted commit cannot be completed
 *   (e.g. no write permission), with the cause.
 */
export async function settleOutputSet(dir: string, options: { readonly waitMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  for (;;) {
    const found = await readJournal(dir);
    if (found === undefined) break;
    const { journal } = found;
    // A journal being created without hard links can be empty for a moment; an older unreadable one is refused.
    if (journal === undefined && Date.now() - found.modifiedMs > 10_000)
      throw new MiaError(
        `${dir}: ${OUTPUT_SET_JOURNAL} (the record of outputs being replaced) is unreadable; the outputs may be a mix of two runs: run the command that wrote them again`,
      );
    if (journal !== undefined && isAbandoned(journal, found.modifiedMs)) {
      const release = await takeApplyLock(dir);
      if (release !== undefined) {
        try {
          await applyJournal(dir, journal);
        } catch (cause) {
          throw new MiaError(
            `${dir}: an interrupted write (pid ${journal.pid} on ${journal.host}, ${journal.createdAt}) left its outputs half replaced, and completing it failed: ${(cause as Error).message}`,
            { cause },
          );
        } finally {
          await release();
        }
        continue;
      }
    }
    if (Date.now() > deadline)
      throw new MiaError(
        `${dir}: ${journal === undefined ? 'another process' : `pid ${journal.pid} on ${journal.host}`} has been replacing the outputs${journal === undefined ? '' : ` since ${journal.createdAt}`} and has not finished; wait for it, or remove ${OUTPUT_SET_JOURNAL} if that process is gone`,
      );
    await sleep(POLL_MS);
  }
  await removeStaleTemporaries(dir);
}

/**
 * Writes a set of files into `dir` so that the directory holds the old set or the new one, never a
 * mix: every file is first written whole to a temporary name; then one journal file, created in a
 * single step, records the renames (the commit); then the files are renamed into place, the last of
 * `files` last (give the file readers open first, e.g. `results.json`, last), and the journal is
 * removed. A crash before the commit leaves the old set (and temporary files that the next
 * {@link settleOutputSet} removes); a crash after it leaves a journal that the next
 * {@link settleOutputSet} (every writer and reader of run directories calls it) completes. Two
 * processes writing one directory commit one after the other.
 * @throws MiaError from {@link settleOutputSet}; the file system's error when a file cannot be written.
 */
export async function writeOutputSet(dir: string, files: readonly OutputFile[], options: WriteOutputSetOptions = {}): Promise<void> {
  await mkdir(dir, { recursive: true });
  await settleOutputSet(dir, options);
  const nonce = randomBytes(6).toString('hex');
  const written: string[] = [];
  const steps: OutputSetJournal['steps'][number][] = [];
  try {
    for (const file of files) {
      const tmp = temporaryFileName(file.name, nonce);
      trackTemporary(join(dir, tmp));
      written.push(tmp);
      await writeFile(join(dir, tmp), file.content);
      await options.onStep?.(`wrote ${file.name}`);
      steps.push({ rename: [tmp, file.name] });
    }
    const last = steps.pop();
    steps.push(...(options.remove ?? []).filter((name) => !files.some((f) => f.name === name)).map((name) => ({ remove: name })));
    if (last !== undefined) steps.push(last);
    const journal: OutputSetJournal = { format: 'mia-output-set-1', pid: process.pid, host: HOST, nonce, createdAt: new Date().toISOString(), steps };
    committing.add(nonce);
    while (!(await createExclusive(join(dir, OUTPUT_SET_JOURNAL), JSON.stringify(journal)))) await settleOutputSet(dir, options);
    // Committed: the temporary files are the set now, and must outlive this process if it is killed.
    for (const tmp of written) untrackTemporary(join(dir, tmp));
    written.length = 0;
    await options.onStep?.('committed');
    await applyJournal(dir, journal, options.onStep);
  } finally {
    committing.delete(nonce);
    for (const tmp of written) {
      untrackTemporary(join(dir, tmp));
      await rm(join(dir, tmp), { force: true });
    }
  }
}
