import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import { trainUnitsInWorkers, WorkerSlots } from './worker-pool';

const dir = mkdtempSync(join(tmpdir(), 'mia-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('WorkerSlots', () => {
  it('hands out at most `size` slots, first come first served, and a release frees one slot once', async () => {
    const slots = new WorkerSlots(2);
    const a = await slots.acquire();
    const b = await slots.acquire();
    expect(slots.available).toBe(0);
    const order: string[] = [];
    const c = slots.acquire().then((r) => (order.push('c'), r));
    const d = slots.acquire().then((r) => (order.push('d'), r));
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    a();
    a(); // a second call of the same release does nothing
    const releaseC = await c;
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['c']);
    b();
    const releaseD = await d;
    expect(order).toEqual(['c', 'd']);
    releaseC();
    releaseD();
    expect(slots.available).toBe(2);
  });

  it('refuses a size that is not a positive integer', () => {
    for (const size of [0, 1.5, -1]) expect(() => new WorkerSlots(size)).toThrow(`WorkerSlots: size must be a positive integer, got ${size}`);
  });
});

// Targets only (no attacks, so no shadows): one unit per defense, a few seconds each.
const configOf = (name: string, alphas: number[]) =>
  parseExperimentConfig({
    name,
    scale: 'smoke',
    seed: 2,
    dataset: { name: 'purchaseLike', size: 2000 },
    partition: { preset: 'CCL4', maxPerRole: 300 },
    model: { name: 'mlp', options: { hidden: [64] } },
    training: { epochs: 30, batchSize: 32, lr: 0.1 },
    defenses: alphas.map((alpha) => ({ name: 'ccl', label: `CCQL ${alpha}`, params: { alpha, concave: 'quadratic' } })),
    attacks: [],
  });

describe('trainUnitsInWorkers with shared slots', () => {
  it("starts another call's unit on the slot a finished member frees, never running more members than slots", async () => {
    const slots = new WorkerSlots(2);
    const events: string[] = [];
    let running = 0;
    let most = 0;
    const onLog = (call: string) => (line: string) => {
      if (/\] training {3}/.test(line)) most = Math.max(most, ++running);
      if (/\] trained {4}/.test(line)) running -= 1;
      if (/\] train(ing|ed) /.test(line)) events.push(`${call} ${line.replace(/^\[worker \d\] /, '').replace(/ in .*$/, '')}`);
    };
    const a = configOf('pool-a', [0.2, 0.4, 0.6]);
    const b = configOf('pool-b', [0.8]);
    const units = (n: number) => Array.from({ length: n }, (_, defenseIndex) => ({ defenseIndex, role: 'target' as const }));
    const storeRoot = join(dir, 'store');
    // Which call got a slot when (a member then starts: a new thread loads its backend and data first).
    const granted = (call: string) => ({ acquire: () => slots.acquire().then((release) => (events.push(`${call} slot`), release)) });
    await Promise.all([
      trainUnitsInWorkers(a, units(3), { workers: 2, slots: granted('A'), storeRoot, onLog: onLog('A') }),
      trainUnitsInWorkers(b, units(1), { workers: 2, slots: granted('B'), storeRoot, onLog: onLog('B') }),
    ]);
    expect(most).toBe(2);
    expect(events.filter((e) => e.includes('trained'))).toHaveLength(4);
    // A's two members take its first two units; the first to finish takes the third, the other has
    // nothing left and frees its slot, which B gets while A's third unit still trains (before, B
    // waited for all of A's units).
    const trail = events.join('\n');
    expect(events.slice(0, 2), trail).toEqual(['A slot', 'A slot']);
    const aThird = events.map((e, j) => (e.startsWith('A trained') ? j : -1)).filter((j) => j >= 0)[2]!;
    expect(events.indexOf('B slot'), trail).toBeGreaterThan(events.findIndex((e) => e.startsWith('A trained')));
    expect(events.indexOf('B slot'), trail).toBeLessThan(aThird);
    expect(events, trail).toContain('B trained    CCQL 0.8/target');
    expect(slots.available).toBe(2);
  });
});

describe('trainUnitsInWorkers and a unit it cannot send', () => {
  it('rejects with the reason (not plain data) instead of waiting forever', async () => {
    const config = configOf('unsendable', [0.5]);
    const unsendable = { defenseIndex: 0, role: 'target', keyWith: () => 'x' } as unknown as Parameters<typeof trainUnitsInWorkers>[1][number];
    await expect(trainUnitsInWorkers(config, [unsendable], { workers: 1, storeRoot: join(dir, 'unsendable') })).rejects.toThrow(/could not be cloned/);
  }, 60_000);
});
