import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from '../config/parse-config';
import type { ExperimentResults } from '../run/results';
import { runExperiment } from '../run/runner';
import { EXPOSURE_TOP_RECORDS } from '../run/row-exposure';
import { rerenderRun } from './rerender-run';
import { writeReport } from './write-report';

const dir = mkdtempSync(join(tmpdir(), 'mia-exposure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

// A smoke-scale run: Purchase-like stand-in, a narrow MLP, two rows, metric attacks and one trained (NN) attack.
const config = parseExperimentConfig({
  name: 'exposure-smoke',
  scale: 'smoke',
  seed: 3,
  dataset: { name: 'purchaseLike', size: 1200 },
  partition: { preset: 'CCL4', maxPerRole: 120 },
  model: { name: 'mlp', options: { hidden: [32] } },
  training: { epochs: 8, batchSize: 32, lr: 0.1 },
  defenses: [
    { name: 'none', label: 'undefended' },
    { name: 'ccl', label: 'CCEL', params: { alpha: 0.3, concave: 'exponential' } },
  ],
  attacks: ['loss', 'confidence', 'entropy', 'nn-mlh'],
});

const csvLines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');

describe('per-record exposure of a run', () => {
  let first: ExperimentResults;
  const store = new DirectoryArtifactStore(join(dir, 'cache'));
  beforeAll(async () => {
    first = await runExperiment(config, { store });
  }, 300_000);

  it('writes exposure.csv with one line per member and non-member of every row, and the documented columns', async () => {
    const paths = await writeReport(first, join(dir, 'cold'));
    expect(paths.csv).toBe(join(dir, 'cold', 'exposure.csv'));
    const [header, ...lines] = csvLines(paths.csv!);
    expect(header).toBe('row,set,index,label,loss,score_loss,score_confidence,score_entropy,score_nn-mlh,rank,fpr_to_flag');
    const { target_train: members, target_test: nonMembers } = first.partition.sizes;
    expect([members, nonMembers]).toEqual([120, 120]);
    for (const row of ['undefended', 'CCEL']) {
      const mine = lines.map((l) => l.split(',')).filter((f) => f[0] === row);
      expect(mine.filter((f) => f[1] === 'member')).toHaveLength(members!);
      expect(mine.filter((f) => f[1] === 'non-member')).toHaveLength(nonMembers!);
      // Dataset indices: each record once, members and non-members disjoint.
      expect(new Set(mine.map((f) => f[2])).size).toBe(members! + nonMembers!);
      // Members carry a rank 1 … n and an FPR to flag; non-members leave both empty.
      const ranks = mine.filter((f) => f[1] === 'member').map((f) => Number(f[9]));
      expect(Math.min(...ranks)).toBe(1);
      expect(mine.filter((f) => f[1] === 'non-member').every((f) => f[9] === '' && f[10] === '')).toBe(true);
    }
    expect(lines).toHaveLength(2 * (members! + nonMembers!));
    // results.json keeps the top records only, never the per-record data.
    const stored = JSON.parse(readFileSync(paths.json, 'utf8')) as ExperimentResults;
    expect(stored.perRecord).toBeUndefined();
    expect(stored.rows.map((r) => r.exposure!.top.length)).toEqual([EXPOSURE_TOP_RECORDS, EXPOSURE_TOP_RECORDS]);
  });

  it('lists the most exposed members sorted by exposure, matching the CSV', async () => {
    const lines = csvLines(join(dir, 'cold', 'exposure.csv')).map((l) => l.split(','));
    const header = lines[0]!;
    for (const row of first.rows) {
      const e = row.exposure!;
      expect(row.attacks.map((a) => a.attack)).toContain(e.attack);
      const scores = e.top.map((r) => r.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(e.top.map((r) => r.rank)).toEqual([...e.top.map((r) => r.rank)].sort((a, b) => a - b));
      expect(e.top[0]!.rank).toBe(1);
      // The top record is the member with the highest score of that attack in the CSV, with its label and loss.
      const column = header.indexOf(`score_${e.attack}`);
      const members = lines.filter((f) => f[0] === row.label && f[1] === 'member');
      const best = Math.max(...members.map((f) => Number(f[column])));
      expect(e.top[0]!.score).toBe(best);
      const line = members.find((f) => Number(f[2]) === e.top[0]!.index)!;
      expect([Number(line[column]), Number(line[3]), Number(line[4])]).toEqual([e.top[0]!.score, e.top[0]!.label, e.top[0]!.loss]);
      expect(e.scoreHistogram.members.reduce((a, b) => a + b)).toBe(e.numMembers);
      expect(e.scoreHistogram.nonMembers.reduce((a, b) => a + b)).toBe(e.numNonMembers);
    }
  });

  it('puts the score distributions and the most exposed records in report.html and report.md', () => {
    const html = readFileSync(join(dir, 'cold', 'report.html'), 'utf8');
    const figure = html.slice(html.indexOf('data-figure="score-distributions"'));
    expect(figure).toMatch(/^data-figure="score-distributions"><figcaption>Membership score distributions<\/figcaption><svg/);
    expect(html).toContain('<h2 id="exposure">Most exposed records</h2>');
    const e = first.rows[0]!.exposure!;
    expect(html).toContain(`<td>1</td><td>${e.top[0]!.index}</td><td>${e.top[0]!.label}</td>`);
    const md = readFileSync(join(dir, 'cold', 'report.md'), 'utf8');
    expect(md).toContain('## Most exposed records');
    expect(md).toContain(`| 1 | ${e.top[0]!.index} | ${e.top[0]!.label} |`);
  });

  it('a cache-warm run writes the same files and the same per-record scores', async () => {
    const logs: string[] = [];
    const second = await runExperiment(config, { store, onLog: (l) => logs.push(l) });
    expect(second.rows.map((r) => r.cache)).toEqual(first.rows.map(() => ({ target: 'hit', shadow: 'hit' })));
    expect(logs.some((l) => l.startsWith('cache hit') && l.includes('nn-mlh attack'))).toBe(true);
    await writeReport(second, join(dir, 'warm'));
    expect(readdirSync(join(dir, 'warm')).sort()).toEqual(readdirSync(join(dir, 'cold')).sort());
    expect(readFileSync(join(dir, 'warm', 'exposure.csv'), 'utf8')).toBe(readFileSync(join(dir, 'cold', 'exposure.csv'), 'utf8'));
    expect(second.rows.map((r) => r.exposure)).toEqual(first.rows.map((r) => r.exposure));
  }, 300_000);

  it('re-rendering keeps the CSV; results without an exposure render without the section; a run without one removes a stale CSV', async () => {
    const before = readFileSync(join(dir, 'cold', 'exposure.csv'), 'utf8');
    await rerenderRun(join(dir, 'cold'));
    expect(readFileSync(join(dir, 'cold', 'exposure.csv'), 'utf8')).toBe(before);
    // Results written before the exposure existed (no `exposure`, no CSV): no section, no figure, no crash.
    const older = { ...first, rows: first.rows.map(({ exposure: _, ...row }) => row), perRecord: undefined };
    const old = join(dir, 'older');
    const paths = await writeReport(older, old);
    expect(paths.csv).toBeUndefined();
    expect(existsSync(join(old, 'exposure.csv'))).toBe(false);
    expect(readFileSync(paths.html, 'utf8')).not.toContain('score-distributions');
    expect(readFileSync(paths.markdown, 'utf8')).not.toContain('Most exposed records');
    // One row whose scores were unusable: its part says so, the other row keeps its table.
    const partial = { ...first, rows: [first.rows[0]!, { ...older.rows[1]! }], perRecord: [] };
    writeFileSync(join(old, 'exposure.csv'), 'stale\n');
    await writeReport(partial, old);
    expect(existsSync(join(old, 'exposure.csv'))).toBe(false);
    expect(readFileSync(join(old, 'report.md'), 'utf8')).toContain('### CCEL\n\nPer-record exposure: not computed (the warnings say why).');
  });
});
