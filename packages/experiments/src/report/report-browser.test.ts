import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config';
import type { DefenseRow, ExperimentResults } from '../results';
import { writeReport } from './write-report';

// Debian's chromium (`apt-get install chromium`; .ci/run installs it). Without it this test is
// skipped with the reason printed, never passed silently.
const CHROMIUM = process.env.MIA_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`report-browser.test: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set MIA_CHROMIUM)`);

const dir = mkdtempSync(join(tmpdir(), 'mia-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const row = (label: string, acc: number, adv: number): DefenseRow => ({
  defense: label, label, params: {}, trainAccuracy: 0.99, testAccuracy: acc, lossGap: 1, lossVariance: 0.5,
  attacks: ['loss', 'confidence'].map((attack) => ({ attack, accuracy: 0.5 + adv / 2, advantage: adv, auc: 0.5 + adv / 2, tprAtFpr: [{ fpr: 0.01, tpr: 0.1, achievedFpr: 0.01 }], roc: { fpr: [0, 0.001, 0.01, 0.2, 1], tpr: [0, 0.02, 0.1, 0.7, 1] } })),
  maxAdvantage: adv, p1: 0.5, lossHistogram: { edges: [0, 0.5, 1, 1.5], members: [30, 5, 1], nonMembers: [10, 15, 11] },
  cache: { target: 'miss', shadow: 'miss' }, trainSeconds: 3,
});

describe.skipIf(!haveChromium)('report.html in headless Chromium', () => {
  it('renders every figure and fetches nothing from the network', async () => {
    const results: ExperimentResults = {
      format: 'mia-results-1',
      config: parseExperimentConfig({ name: 'browser-check', dataset: { name: 'purchaseLike' }, partition: {}, model: { name: 'mlp' }, training: { epochs: 1, batchSize: 1, lr: 0.1 }, defenses: [{ name: 'none' }], attacks: ['loss', 'confidence'] }),
      dataset: { name: 'purchaseLike', source: 'stand-in', description: 'synthetic', size: 10 },
      partition: { preset: 'CCL4', sizes: {}, digest: 'x' }, backend: 'cpu', versions: {}, startedAt: '2026-11-22T00:00:00Z', seconds: 1,
      rows: [row('undefended', 0.7, 0.6), row('CCQL', 0.68, 0.3)], notes: ['stand-in data'],
    };
    const paths = await writeReport(results, dir);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(pathToFileURL(paths.html).href);
      const figures = await page.$$eval('figure', (fs) => fs.map((f) => {
        const svg = f.querySelector('svg');
        const box = svg?.getBoundingClientRect();
        return { id: f.id, width: box?.width ?? 0, height: box?.height ?? 0, marks: svg?.querySelectorAll('path, rect, line').length ?? 0 };
      }));
      expect(figures.map((f) => f.id)).toEqual(['privacy-utility', 'roc-loss', 'roc-confidence', 'loss-histograms']);
      for (const f of figures) {
        expect(f.width, f.id).toBeGreaterThan(100);
        expect(f.height, f.id).toBeGreaterThan(100);
        expect(f.marks, f.id).toBeGreaterThan(3);
      }
      expect(await page.textContent('table')).toContain('undefended');
      expect(requests.filter((u) => u !== pathToFileURL(paths.html).href)).toEqual([]);
      // A screenshot for humans and CI artifacts.
      const shots = join(process.env.MIA_ARTIFACTS ?? dir, 'screenshots');
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, 'report.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });
});
