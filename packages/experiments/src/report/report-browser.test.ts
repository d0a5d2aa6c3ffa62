import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import type { DefenseRow, ExperimentResults } from '../run/results';
import { writeReproductionReport } from '../reproduce/reproduction-report';
import type { ReproductionResult } from '../reproduce/types';
import { writeReport } from './write-report';

// Debian's chromium (`apt-get install chromium`; .ci/run installs it). Without it this test is
// skipped with the reason printed, never passed silently.
const CHROMIUM = process.env.MIA_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`report-browser.test: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set MIA_CHROMIUM)`);

const dir = mkdtempSync(join(tmpdir(), 'mia-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const row = (label: string, acc: number, adv: number): DefenseRow => ({
  defense: label,
  label,
  params: {},
  trainAccuracy: 0.99,
  testAccuracy: acc,
  lossGap: 1,
  lossVariance: 0.5,
  attacks: ['loss', 'confidence'].map((attack) => ({
    attack,
    accuracy: 0.5 + adv / 2,
    advantage: adv,
    auc: 0.5 + adv / 2,
    tprAtFpr: [{ fpr: 0.01, tpr: 0.1, achievedFpr: 0.01 }],
    roc: { fpr: [0, 0.001, 0.01, 0.2, 1], tpr: [0, 0.02, 0.1, 0.7, 1] },
  })),
  maxAdvantage: adv,
  p1: 0.5,
  lossHistogram: { edges: [0, 0.5, 1, 1.5], members: [30, 5, 1], nonMembers: [10, 15, 11] },
  cache: { target: 'miss', shadow: 'miss' },
  trainSeconds: 3,
});

const launch = () =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
const shots = join(process.env.MIA_ARTIFACTS ?? dir, 'screenshots');

describe.skipIf(!haveChromium)('report.html in headless Chromium', () => {
  it('renders every figure and fetches nothing from the network', async () => {
    const results: ExperimentResults = {
      format: 'mia-results-1',
      config: parseExperimentConfig({
        name: 'browser-check',
        dataset: { name: 'purchaseLike' },
        partition: {},
        model: { name: 'mlp' },
        training: { epochs: 1, batchSize: 1, lr: 0.1 },
        defenses: [{ name: 'none' }],
        attacks: ['loss', 'confidence'],
      }),
      dataset: { name: 'purchaseLike', source: 'stand-in', description: 'synthetic', size: 10 },
      partition: { preset: 'CCL4', sizes: {}, digest: 'x' },
      backend: 'cpu',
      versions: {},
      startedAt: '2026-11-22T00:00:00Z',
      seconds: 1,
      rows: [row('undefended', 0.7, 0.6), { ...row('CCQL alpha=0.2', 0.68, 0.3), defense: 'ccl' }, { ...row('CCQL alpha=0.6', 0.66, 0.2), defense: 'ccl' }],
      notes: ['stand-in data'],
      warnings: ['too few examples per class: 1.5 per class'],
      command: 'mia sweep configs/ccl.yaml',
    };
    const paths = await writeReport(results, dir);
    const browser = await launch();
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(pathToFileURL(paths.html).href);
      const figures = await page.$$eval('figure', (fs) =>
        fs.map((f) => {
          const svg = f.querySelector('svg');
          const box = svg?.getBoundingClientRect();
          return { id: f.id, width: box?.width ?? 0, height: box?.height ?? 0, marks: svg?.querySelectorAll('path, rect, line').length ?? 0 };
        }),
      );
      expect(figures.map((f) => f.id)).toEqual(['privacy-utility', 'roc-loss', 'roc-confidence', 'loss-histograms']);
      for (const f of figures) {
        expect(f.width, f.id).toBeGreaterThan(100);
        expect(f.height, f.id).toBeGreaterThan(100);
        expect(f.marks, f.id).toBeGreaterThan(3);
      }
      expect(await page.textContent('table')).toContain('undefended');
      // The trade-off legend names the defenses as the points do (a sweep is one series, "CCQL").
      const texts = (selector: string) => page.$$eval(selector, (ts) => ts.map((t) => t.textContent ?? ''));
      expect(await texts('#privacy-utility .role-legend-label text')).toEqual(['CCQL', 'undefended']);
      expect((await texts('#privacy-utility .role-mark text')).sort()).toEqual(['CCQL alpha=0.2', 'CCQL alpha=0.6', 'undefended']);
      // No point label overlaps the legend or leaves the figure (the legend sits under the plot).
      const boxes = await page.$eval('#privacy-utility svg', (svg) => {
        const box = (e: Element) => {
          const r = e.getBoundingClientRect();
          return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        };
        return { svg: box(svg), legend: box(svg.querySelector('.role-legend')!), labels: Array.from(svg.querySelectorAll('.role-mark text'), box) };
      });
      for (const l of boxes.labels) {
        const apart = l.right <= boxes.legend.left || l.left >= boxes.legend.right || l.bottom <= boxes.legend.top || l.top >= boxes.legend.bottom;
        expect(apart, JSON.stringify({ label: l, legend: boxes.legend })).toBe(true);
        expect(l.left).toBeGreaterThanOrEqual(boxes.svg.left);
        expect(l.right).toBeLessThanOrEqual(boxes.svg.right);
      }
      // ROC axes start at the data's resolution (smallest positive rate 0.001), not at 1e-5.
      const ticks = (await texts('#roc-loss .role-axis-label text')).filter((t) => t !== '').map(Number);
      expect(Math.min(...ticks)).toBe(0.001);
      expect(Math.max(...ticks)).toBe(1);
      // No markdown in the page: the attack tables are tables, the only <pre> is the reproduce command.
      expect(await page.$$eval('section.attacks table', (ts) => ts.length)).toBe(3);
      expect(await texts('pre')).toEqual([
        `mia sweep configs/ccl.yaml   # how this run was made\nmia run ${paths.config}   # this run alone, from its config as run (defaults filled in)`,
      ]);
      expect(await page.textContent('body')).not.toMatch(/\|---|^#{1,3} /m);
      const warning = await page.$('p.warning');
      expect((await warning!.boundingBox())!.height).toBeGreaterThan(10);
      expect(await warning!.textContent()).toBe('Warning: too few examples per class: 1.5 per class');
      expect(await page.textContent('body')).toContain('"(@y)" after it is that FPR y in %');
      expect(requests.filter((u) => u !== pathToFileURL(paths.html).href)).toEqual([]);
      // A screenshot for humans and CI artifacts.
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, 'report.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });

  it('renders a reproduction report (real output of examples/ccl, re-rendered) with its tables and claims', async () => {
    const source = join(__dirname, '..', '..', '..', '..', 'examples', 'ccl', 'results', 'ccl-table1-cpu', 'reproduction.json');
    const result = JSON.parse(readFileSync(source, 'utf8')) as ReproductionResult;
    const paths = await writeReproductionReport(result, join(dir, 'reproduction'));
    const browser = await launch();
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(pathToFileURL(paths.html).href);
      expect(await page.$$eval('table', (ts) => ts.length)).toBe(result.tables.length);
      expect(await page.$$eval('li', (ls) => ls.length)).toBe(result.claims.length);
      const first = await page.$('table');
      expect((await first!.boundingBox())!.width).toBeGreaterThan(300);
      expect(await page.textContent('h1')).toBe(result.title);
      expect(requests.filter((u) => u !== pathToFileURL(paths.html).href)).toEqual([]);
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, 'reproduction-report.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });
});
