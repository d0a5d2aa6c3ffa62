import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Serves the page with Vite's dev server on 127.0.0.1 (workspace packages from their sources
// through `@mia/source`, see vite.config.ts; `vite build` works the same but costs ~4× the CPU
// time) and drives it in Debian's headless Chromium (`apt-get install chromium`; .ci/run installs
// it). Without Chromium the test is skipped with the reason printed, never passed silently.
const CHROMIUM = process.env.MIA_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`browser-ccl: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set MIA_CHROMIUM)`);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'mia-browser-ccl-'));
let server: ViteDevServer | undefined;
let browser: Browser | undefined;

const isLoopback = (url: string): boolean => {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:') return true;
  return /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === 'localhost' || hostname === '[::1]';
};

describe.skipIf(!haveChromium)('browser-ccl page in headless Chromium', () => {
  beforeAll(async () => {
    server = await createServer({ root, server: { host: '127.0.0.1', strictPort: false, open: false, watch: null }, logLevel: 'warn' });
    await server.listen();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('trains with cclLoss, measures the loss attack and shows consistent numbers', async () => {
    const url = server!.resolvedUrls!.local[0]!;
    expect(isLoopback(url)).toBe(true);
    const page = await browser!.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => errors.push(e.message));
    // Belt and braces: anything not on loopback is aborted (and then fails the assertion below).
    await page.route('**/*', (route) => (isLoopback(route.request().url()) ? route.continue() : route.abort()));
    await page.goto(url);
    await page.waitForSelector('[data-testid="status"][data-state="done"], [data-testid="status"][data-state="error"]', { timeout: 45_000 });
    expect(await page.textContent('[data-testid="status"]')).toBe('done');
    expect(errors).toEqual([]);

    const read = async (id: string) => (await page.textContent(`[data-testid="${id}"]`)) ?? '';
    const num = async (id: string) => Number(await read(id));
    expect(await read('backend')).toBe('cpu');
    expect(await read('members')).toBe('80 / 80');
    expect(await num('epochs')).toBe(60);
    const [lossFirst, lossLast] = [await num('loss-first'), await num('loss-last')];
    const [trainAcc, testAcc] = [await num('train-accuracy'), await num('test-accuracy')];
    const [auc, advantage, balanced] = [await num('auc'), await num('advantage'), await num('balanced-accuracy')];
    for (const v of [lossFirst, lossLast, trainAcc, testAcc, auc, advantage, balanced]) expect(Number.isFinite(v)).toBe(true);
    expect(lossLast).toBeLessThan(lossFirst); // training made progress
    for (const v of [trainAcc, testAcc, auc, balanced]) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
    // The noisy blobs are learnable but the small training set is overfitted: members fit better.
    expect(trainAcc).toBeGreaterThan(0.5);
    expect(trainAcc).toBeGreaterThanOrEqual(testAcc);

    // Known relations, checked in Node on the scores the page shows:
    const { scores, isMember } = JSON.parse(await read('scores')) as { scores: number[]; isMember: number[] };
    expect(scores).toHaveLength(160);
    expect(isMember.filter((m) => m === 1)).toHaveLength(80);
    // (1) AUC = Mann–Whitney: P(member score > non-member score) + ½ P(tie), by brute force over pairs.
    const members = scores.filter((_, i) => isMember[i] === 1);
    const nonMembers = scores.filter((_, i) => isMember[i] === 0);
    let wins = 0;
    for (const m of members) for (const n of nonMembers) wins += m > n ? 1 : m === n ? 0.5 : 0;
    expect(auc).toBeCloseTo(wins / (members.length * nonMembers.length), 5); // the DOM shows 6 decimals
    // (2) best-threshold advantage by brute force over every threshold = max(TPR − FPR).
    let best = 0;
    for (const t of scores) {
      const tpr = members.filter((s) => s >= t).length / members.length;
      const fpr = nonMembers.filter((s) => s >= t).length / nonMembers.length;
      best = Math.max(best, tpr - fpr);
    }
    expect(advantage).toBeCloseTo(best, 5);
    // (3) balanced accuracy = ½(1 + advantage); (4) a ROC under TPR ≤ FPR + adv has AUC ≤ 1 − (1 − adv)²/2.
    expect(balanced).toBeCloseTo((1 + advantage) / 2, 5);
    expect(auc).toBeLessThanOrEqual(1 - (1 - advantage) ** 2 / 2 + 1e-6);
    expect(auc).toBeGreaterThan(0.5); // the loss attack finds some membership signal on an overfitted model

    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((u) => !isLoopback(u))).toEqual([]);
    const shots = join(process.env.MIA_ARTIFACTS ?? scratch, 'screenshots');
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'browser-ccl.png'), fullPage: true });
  });
});
