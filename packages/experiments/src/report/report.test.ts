import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config';
import type { DefenseRow, ExperimentResults } from '../results';
import { markdownReport } from './markdown-report';
import { writeReport } from './write-report';

const dir = mkdtempSync(join(tmpdir(), 'mia-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function row(label: string, testAccuracy: number, advantage: number): DefenseRow {
  return {
    defense: label.split(' ')[0]!, label, params: {}, trainAccuracy: 1, testAccuracy, lossGap: 0.5, lossVariance: 0.1,
    attacks: [{ attack: 'loss', accuracy: 0.5 + advantage / 2, advantage, auc: 0.5 + advantage, tprAtFpr: [{ fpr: 0.01, tpr: 0.05, achievedFpr: 0.01 }], roc: { fpr: [0, 0.01, 0.5, 1], tpr: [0, 0.05, 0.9, 1] } }],
    maxAdvantage: advantage, p1: 0.6, lossHistogram: { edges: [0, 1, 2], members: [8, 2], nonMembers: [3, 7] },
    cache: { target: 'miss', shadow: 'miss' }, trainSeconds: 1,
  };
}

const results: ExperimentResults = {
  format: 'mia-results-1',
  config: parseExperimentConfig({
    name: 'fixture', dataset: { name: 'purchaseLike' }, partition: { preset: 'CCL4' }, model: { name: 'mlp' },
    training: { epochs: 1, batchSize: 8, lr: 0.1 }, defenses: [{ name: 'none' }, { name: 'ccl' }], attacks: ['loss'],
    paper: { source: 'CCL Table 1', values: { 'none': { p1: 0.41 } } },
  }),
  dataset: { name: 'purchaseLike', source: 'stand-in', description: 'synthetic', size: 100 },
  partition: { preset: 'CCL4', sizes: { target_train: 25 }, digest: 'abc' },
  backend: 'cpu', versions: { '@mia/experiments': '0.1.0' }, startedAt: '2026-11-22T00:00:00Z', seconds: 1,
  rows: [row('none', 0.6, 0.4), row('ccl alpha=0.5', 0.62, 0.2)],
  notes: ['purchaseLike is a synthetic stand-in for Purchase100.'],
};

describe('reports', () => {
  it('markdown has the table, the paper value and the stand-in note', () => {
    const md = markdownReport(results);
    expect(md).toContain('| none | 100.0 | 60.0 | 0.500 | 0.100 | 40.0 | 40.0 | 0.600 | 0.41 | — |');
    expect(md).toContain('STAND-IN');
    expect(md).toContain('> **Note:** purchaseLike is a synthetic stand-in');
  });

  it('writes results.json, report.md and a self-contained report.html with every figure', async () => {
    const paths = await writeReport(results, dir);
    expect(JSON.parse(readFileSync(paths.json, 'utf8')).rows).toHaveLength(2);
    const html = readFileSync(paths.html, 'utf8');
    for (const id of ['privacy-utility', 'roc-loss', 'loss-histograms']) expect(html).toMatch(new RegExp(`<figure id="${id}"[^>]*>.*?<svg`, 's'));
    expect(html).not.toMatch(/<script|<link|src="http|href="http/);
  });
});
