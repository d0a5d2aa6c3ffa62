import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import type { DefenseRow, ExperimentResults } from '../run/results';
import { markdownReport, privacyTable } from './markdown-report';
import { rocFloor, rocSpec, seriesOf } from './plots';
import { writeReport } from './write-report';

const dir = mkdtempSync(join(tmpdir(), 'mia-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function row(label: string, testAccuracy: number, advantage: number): DefenseRow {
  return {
    defense: label.split(' ')[0]!,
    label,
    params: {},
    trainAccuracy: 1,
    testAccuracy,
    lossGap: 0.5,
    lossVariance: 0.1,
    attacks: [
      {
        attack: 'loss',
        accuracy: 0.5 + advantage / 2,
        advantage,
        auc: 0.5 + advantage,
        tprAtFpr: [{ fpr: 0.01, tpr: 0.05, achievedFpr: 0.01 }],
        roc: { fpr: [0, 0.01, 0.5, 1], tpr: [0, 0.05, 0.9, 1] },
      },
    ],
    maxAdvantage: advantage,
    p1: 0.6,
    lossHistogram: { edges: [0, 1, 2], members: [8, 2], nonMembers: [3, 7] },
    cache: { target: 'miss', shadow: 'miss' },
    trainSeconds: 1,
  };
}

const results: ExperimentResults = {
  format: 'mia-results-1',
  config: parseExperimentConfig({
    name: 'fixture',
    dataset: { name: 'purchaseLike' },
    partition: { preset: 'CCL4' },
    model: { name: 'mlp' },
    training: { epochs: 1, batchSize: 8, lr: 0.1 },
    defenses: [{ name: 'none' }, { name: 'ccl' }],
    attacks: ['loss'],
    paper: { source: 'CCL Table 1', values: { none: { p1: 0.41 } } },
  }),
  dataset: { name: 'purchaseLike', source: 'stand-in', description: 'synthetic', size: 100 },
  partition: { preset: 'CCL4', sizes: { target_train: 25 }, digest: 'abc' },
  backend: 'cpu',
  versions: { '@mia/experiments': '0.1.0' },
  startedAt: '2026-11-22T00:00:00Z',
  seconds: 1,
  rows: [row('none', 0.6, 0.4), row('ccl alpha=0.5', 0.62, 0.2)],
  notes: ['purchaseLike is a synthetic stand-in for Purchase100.'],
  warnings: ['ccl alpha=0.5 target diverged: its mean loss on its own training set is 5.03e+22'],
  command: 'mia run configs/fixture.yaml',
};

describe('reports', () => {
  it("the DP table shows a row's search: its ε when accounted, 'not accounted' when the search read private data without one", () => {
    const dpRow = (label: string): DefenseRow =>
      ({ ...row(label, 0.5, 0.1), defense: 'dp-sgd', privacy: { mechanism: 'dp-sgd', epsilon: 4, delta: 1e-5 } }) as DefenseRow;
    const dp = (label: string, search?: object) => ({
      name: 'dp-sgd',
      label,
      params: { clipNorm: 1, targetEpsilon: 4, delta: 1e-5, sampleRate: 0.1 },
      ...(search === undefined ? {} : { search }),
    });
    const config = parseExperimentConfig({
      ...results.config,
      defenses: [
        dp('accounted', { candidates: 25, onPrivateData: true, epsilon: 26.8 }),
        dp('unaccounted', { candidates: 25, onPrivateData: true }),
        dp('public', { candidates: 4, onPrivateData: false }),
        dp('plain'),
      ],
    });
    const table = privacyTable({ ...results, config, rows: ['accounted', 'unaccounted', 'public', 'plain'].map(dpRow) })!;
    const column = table.header.indexOf('ε with its search');
    expect(column).toBe(2);
    expect(table.rows.map((r) => r[column])).toEqual([
      '26.80 (best of 25 on private data)',
      'not accounted (best of 25 on private data)',
      "the accountant's (best of 4)",
      '—',
    ]);
    // Without a declared search, no such column.
    expect(privacyTable({ ...results, rows: [dpRow('none')] })!.header).not.toContain('ε with its search');
  });

  it('markdown has the table, the paper value and the stand-in note', () => {
    const md = markdownReport(results);
    // The fixture gives the paper's P1 of one row and no paper test accuracy: that column is dropped.
    expect(md).toContain('| defense | train acc % | test acc % | loss gap | loss var | adv loss % | max adv % | P1 | paper P1 |');
    expect(md).toContain('| none | 100.0 | 60.0 | 0.500 | 0.100 | 40.0 | 40.0 | 0.600 | 0.41 |');
    expect(md).toContain('STAND-IN');
    expect(md).toContain('> **Note:** purchaseLike is a synthetic stand-in');
  });

  it('writes results.json, config.json, report.md and a self-contained report.html with every figure', async () => {
    const paths = await writeReport(results, dir);
    expect(JSON.parse(readFileSync(paths.json, 'utf8')).rows).toHaveLength(2);
    // config.json is the config as run: parsed again it is the same config, so `mia run` on it reruns the same units.
    expect(parseExperimentConfig(JSON.parse(readFileSync(paths.config, 'utf8')))).toEqual(results.config);
    const html = readFileSync(paths.html, 'utf8');
    for (const id of ['privacy-utility', 'roc-loss', 'loss-histograms']) expect(html).toMatch(new RegExp(`<figure id="${id}"[^>]*>.*?<svg`, 's'));
    expect(html).not.toMatch(/<script|<link|src="http|href="http/);
  });

  it('says how to reproduce the run, explains "(@y)", shows the warnings; the HTML is HTML, not markdown in a <pre>', async () => {
    const paths = await writeReport(results, dir);
    const md = readFileSync(paths.markdown, 'utf8');
    expect(md).not.toContain('<this config>');
    expect(md).toContain('mia run configs/fixture.yaml   # how this run was made');
    expect(md).toContain(`mia run ${paths.config}   # this run alone`);
    expect(md).toContain('| loss | 70.0 | 40.0 | 0.900 | 5.0 (@1.0) |');
    expect(md).toMatch(/"\(@y\)" after it is that FPR y in %, which can be below x because the ROC moves in steps of 1\/\(number of non-members\)/);
    expect(md).toContain('> **Warning:** ccl alpha=0.5 target diverged');
    const html = readFileSync(paths.html, 'utf8');
    expect(html).not.toMatch(/^#+ |\| --- \||\|---\|/m); // no markdown left anywhere
    expect(html).toContain('<p class="warning"><strong>Warning:</strong> ccl alpha=0.5 target diverged');
    expect(html).toContain(
      '<h3>ccl alpha=0.5</h3><table><thead><tr><th>attack</th><th>balanced acc %</th><th>advantage %</th><th>AUC</th><th>TPR@1%FPR %</th></tr></thead><tbody><tr><td>loss</td><td>60.0</td><td>20.0</td><td>0.700</td><td>5.0 (@1.0)</td></tr></tbody></table>',
    );
    expect(html).toContain(`<pre><code>mia run configs/fixture.yaml   # how this run was made\nmia run ${paths.config}`);
    expect(html).toContain('&quot;(@y)&quot; after it is that FPR y');
  });

  it("plots: one trade-off series per defense (sweep parameters stripped), ROC axes from the data's resolution", () => {
    expect(['CCQL alpha=0.2', 'CCQL α=0.5', 'CCQL alpha=0.2 concave=quadratic', 'undefended', 'α=0.5', 'PAST λ=0.1 α=0.5'].map(seriesOf)).toEqual([
      'CCQL',
      'CCQL',
      'CCQL',
      'undefended',
      'α=0.5',
      'PAST',
    ]);
    // 1/2500 = 4e-4 → 1e-4; exactly 1e-3 stays 1e-3; zeros and ones are ignored.
    expect(rocFloor([0, 1 / 2500, 0.5, 1])).toBe(1e-4);
    expect(rocFloor([0, 0.001, 1])).toBe(1e-3);
    expect(rocFloor([0, 1])).toBe(1);
    const spec = rocSpec(results, 'loss') as unknown as { layer: Array<{ encoding: { x: { scale?: { domain: number[] } } } }> };
    expect(spec.layer[1]!.encoding.x.scale!.domain).toEqual([0.01, 1]); // the fixture's smallest positive rate is 0.01
  });
});
