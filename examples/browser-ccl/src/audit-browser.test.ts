import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditScores } from '@mia/attacks';
import { chromium, type Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// auditModel in headless Chromium (audit.html, the same Vite + Debian Chromium setup as
// browser.test.ts; skipped with a printed reason when Chromium is missing).
const CHROMIUM = process.env.MIA_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`audit-browser: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set MIA_CHROMIUM)`);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let server: ViteDevServer | undefined;
let browser: Browser | undefined;
const isLoopback = (url: string): boolean => {
  const { protocol, hostname } = new URL(url);
  return protocol === 'data:' || protocol === 'blob:' || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === 'localhost';
};

interface PageSummary {
  backend: string;
  leakedTensors: number;
  numMembers: number;
  attacks: Array<{ name: string; auc: number; advantage: number; memberScores: number[]; nonMemberScores: number[] }>;
  top: number[];
  markdown: string;
  verdict: { pass: boolean; message: string };
}

describe.skipIf(!haveChromium)('auditModel in headless Chromium', () => {
  beforeAll(async () => {
    server = await createServer({ root, server: { host: '127.0.0.1', strictPort: false, open: false, watch: null }, logLevel: 'warn' });
    await server.listen();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('audits an overfit tfjs model in the page: the leak is found, no tensor is left, and Node computes the same numbers from its scores', async () => {
    const page = await browser!.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.route('**/*', (route) => (isLoopback(route.request().url()) ? route.continue() : route.abort()));
    await page.goto(`${server!.resolvedUrls!.local[0]!}audit.html`);
    await page.waitForSelector('[data-testid="status"][data-state="done"], [data-testid="status"][data-state="error"]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid="status"]')).toBe('done');
    expect(errors).toEqual([]);
    const summary = JSON.parse((await page.textContent('[data-testid="summary"]')) ?? '') as PageSummary;
    expect(summary.backend).toBe('cpu');
    expect(summary.leakedTensors).toBe(0);
    expect(summary.numMembers).toBe(100);
    const loss = summary.attacks.find((a) => a.name === 'loss')!;
    expect(loss.auc).toBeGreaterThan(0.9); // 100 memorised random labels
    expect(summary.verdict.pass).toBe(false);
    expect(summary.verdict.message).toMatch(/^leaks more than allowed at 95 % confidence: advantage upper bound/);
    expect(summary.markdown).toMatch(/^# Membership-inference audit/);
    expect(await page.locator('[data-testid="report"] table').count()).toBe(3);
    // The same scores audited in Node give the same point estimates and the same most exposed records.
    const labels = Array.from({ length: 100 }, (_, i) => (i * 7 + 1) % 10);
    const node = auditScores(
      { attacks: summary.attacks, memberLabels: labels, nonMemberLabels: Array.from({ length: 100 }, (_, i) => (i * 7 + 2) % 10) },
      { resamples: 200 },
    );
    expect(node.attacks.map((a) => a.auc.estimate)).toEqual(summary.attacks.map((a) => a.auc));
    expect(node.attacks.map((a) => a.advantage.estimate)).toEqual(summary.attacks.map((a) => a.advantage));
    expect(node.exposure.top.map((r) => r.index)).toEqual(summary.top);
    expect(requests.filter((u) => !isLoopback(u))).toEqual([]);
  });
});
