import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MiaError } from '@mia/core';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../test-utils/run-mia';
import { OUTPUT_SET_JOURNAL, settleOutputSet, writeOutputSet } from './output-set';
import { readStoredJson } from './rerender-run';
import { writeReport } from './write-report';
import { fakeResults, fakeRow } from '../test-utils/reproduction-fixtures';
import type { ExperimentResults } from '../run/results';
import { HOST_TAG } from '../store/process-owner';

const base = mkdtempSync(join(tmpdir(), 'mia-output-set-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const child = join(__dirname, '..', 'test-utils', 'output-set-child.ts');
const NAMES = ['exposure.csv', 'report.md', 'results.json'];

/** A run directory holding the "old" set. */
function oldRun(name: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  for (const n of NAMES) writeFileSync(join(dir, n), `old ${n}`);
  return dir;
}
/** Each output's content, and whatever else is in the directory. */
const contents = (dir: string) => Object.fromEntries(readdirSync(dir).map((n) => [n, NAMES.includes(n) ? readFileSync(join(dir, n), 'utf8') : '(other)']));
const set = (tag: string) => Object.fromEntries(NAMES.map((n) => [n, `${tag} ${n}`]));

/** Runs the child that writes the "new" set and is killed (SIGKILL) right after `step`. */
function killedWriter(dir: string, step: string): Promise<{ signal: string | null; stdout: string; pid: number }> {
  const proc = spawn(process.execPath, ['--conditions=@mia/source', '--import', 'tsx', child, dir, 'new', step], { cwd: repositoryRoot });
  let stdout = '';
  proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  return new Promise((resolve) => proc.on('close', (_code, signal) => resolve({ signal, stdout, pid: proc.pid! })));
}

/** The pid of a process that has ended. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;

describe('a run directory is all old or all new', () => {
  it('killed after the first rename: the directory is mixed only until the next reader or writer, which completes the new set', async () => {
    const dir = oldRun('killed-mid-commit');
    const run = await killedWriter(dir, 'renamed exposure.csv');
    expect(run.signal).toBe('SIGKILL');
    // What a `kill -9` at that moment leaves: the new exposure.csv beside the old results.json, and the commit's journal.
    expect(readFileSync(join(dir, 'exposure.csv'), 'utf8')).toBe('new exposure.csv');
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toBe('old results.json');
    expect(existsSync(join(dir, OUTPUT_SET_JOURNAL))).toBe(true);
    // A reader (`mia report`, redecide) settles the directory before reading: all new, nothing left over.
    expect(await readStoredJson(join(dir, 'results.json')).catch(() => 'not JSON')).toBe('not JSON');
    expect(contents(dir)).toEqual(set('new'));
  }, 60_000);

  it('several readers and a writer meeting an interrupted commit at once: it is completed once, then the writer commits its set whole', async () => {
    const dir = oldRun('killed-then-raced');
    expect((await killedWriter(dir, 'renamed report.md')).signal).toBe('SIGKILL');
    await Promise.all([
      settleOutputSet(dir),
      settleOutputSet(dir),
      writeOutputSet(
        dir,
        NAMES.map((name) => ({ name, content: `newer ${name}` })),
      ),
      settleOutputSet(dir),
    ]);
    expect(contents(dir)).toEqual(set('newer'));
  }, 60_000);

  it('killed while writing the new files (before the commit): the directory stays all old; the next run removes the dead process’s temporary files', async () => {
    const dir = oldRun('killed-before-commit');
    const run = await killedWriter(dir, 'wrote report.md*');
    expect(run.signal).toBe('SIGKILL');
    const left = readdirSync(dir).filter((n) => n.endsWith('.tmp'));
    expect(left.sort()).toEqual([
      expect.stringMatching(new RegExp(`^exposure\\.csv\\.[0-9a-f]{12}\\.${HOST_TAG}-${run.pid}\\.tmp$`)),
      expect.stringMatching(new RegExp(`^report\\.md\\.[0-9a-f]{12}\\.${HOST_TAG}-${run.pid}\\.tmp$`)),
    ]);
    expect(Object.fromEntries(NAMES.map((n) => [n, readFileSync(join(dir, n), 'utf8')]))).toEqual(set('old'));
    await writeOutputSet(
      dir,
      NAMES.map((name) => ({ name, content: `newer ${name}` })),
    );
    expect(contents(dir)).toEqual(set('newer'));
  }, 60_000);

  it('removes stale temporary files of dead processes (old and new names), keeps those of live processes and files not ours', async () => {
    const dir = oldRun('stale');
    const dead = deadPid();
    const stale = [`results.json.${dead}.tmp`, `report.html.${HOST_TAG}-${dead}.tmp`, `${OUTPUT_SET_JOURNAL}.${HOST_TAG}-${dead}.tmp`];
    const kept = [`report.md.${HOST_TAG}-${process.pid}.tmp`, `notes.${dead}.tmp`, `report.md.0badbeef-${dead}.tmp`];
    for (const n of [...stale, ...kept]) writeFileSync(join(dir, n), 'x');
    await settleOutputSet(dir);
    expect(readdirSync(dir).sort()).toEqual([...NAMES, ...kept].sort());
  });

  it('two writers of one directory commit one after the other: the result is one whole set', async () => {
    const dir = oldRun('two-writers');
    await Promise.all(
      ['a', 'b', 'c'].map((tag) =>
        writeOutputSet(
          dir,
          NAMES.map((name) => ({ name, content: `${tag} ${name}` })),
        ),
      ),
    );
    const tags = new Set(NAMES.map((n) => readFileSync(join(dir, n), 'utf8').split(' ')[0]));
    expect(tags.size).toBe(1);
    expect(readdirSync(dir).sort()).toEqual([...NAMES].sort());
  });

  it('a set without a file of the old one removes it in the same commit; results.json is put in place last', async () => {
    const dir = oldRun('remove');
    const steps: string[] = [];
    await writeOutputSet(
      dir,
      ['report.md', 'results.json'].map((name) => ({ name, content: `new ${name}` })),
      { remove: ['exposure.csv'], onStep: (s) => void steps.push(s) },
    );
    expect(steps.filter((s) => !s.startsWith('wrote'))).toEqual(['committed', 'renamed report.md', 'removed exposure.csv', 'renamed results.json']);
    expect(contents(dir)).toEqual({ 'report.md': 'new report.md', 'results.json': 'new results.json' });
  });

  it('an unreadable journal is refused with a message naming the directory, not read past', async () => {
    const dir = oldRun('bad-journal');
    writeFileSync(join(dir, OUTPUT_SET_JOURNAL), '{ not json');
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(join(dir, OUTPUT_SET_JOURNAL), minuteAgo, minuteAgo); // not one being created right now
    const error = await settleOutputSet(dir).catch((e: unknown) => e);
    expect(MiaError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `${dir}: ${OUTPUT_SET_JOURNAL} (the record of outputs being replaced) is unreadable; the outputs may be a mix of two runs: run the command that wrote them again`,
    );
  });

  it('writeReport replaces a run directory as one set: results.json last, figures and exposure.csv of the old run removed, nothing left over', async () => {
    const dir = oldRun('write-report');
    writeFileSync(join(dir, 'roc-attacks-3.svg'), 'old figure');
    writeFileSync(join(dir, `report.md.${deadPid()}.tmp`), 'left by a killed run');
    const results: ExperimentResults = {
      ...fakeResults([fakeRow('undefended', { train: 0.9, test: 0.6, adv: 0.1 })]),
      config: { name: 'set', description: '', attacks: ['loss'], model: { name: 'mlp' }, training: { epochs: 1 }, scale: 'smoke', seed: 0 } as never,
      perRecord: [],
    };
    const steps: string[] = [];
    await writeReport(results, dir, { onStep: (s) => void steps.push(s) });
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'report.html', 'report.md', 'results.json']);
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).rows[0].label).toBe('undefended');
    expect(steps.filter((s) => !s.startsWith('wrote'))).toEqual([
      'committed',
      'renamed config.json',
      'renamed report.md',
      'renamed report.html',
      'removed exposure.csv',
      'removed roc-attacks-3.svg',
      'renamed results.json',
    ]);
  });
});
