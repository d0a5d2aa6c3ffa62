import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DirectoryArtifactStore, type ArtifactStore } from '../store/artifact-store';
import type { RunPlan } from '../plan/plan-run';
import { choosePlacement, placeUnits, type UnitPlacement } from './placement';

const dir = mkdtempSync(join(tmpdir(), 'mia-placement-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = new DirectoryArtifactStore(dir);

describe('choosePlacement', () => {
  it('a given placement wins; else a pool for workers > 0; else this thread', () => {
    const given: UnitPlacement = { where: () => 'on the queue', train: vi.fn() };
    expect(choosePlacement(store, { workers: 4, placement: given })).toBe(given);
    expect(choosePlacement(store, { workers: 0 }).where(3)).toBe('in this thread');
    expect(choosePlacement(store, { workers: 2, isolation: 'thread' }).where(5)).toBe('on 2 worker threads');
    expect(choosePlacement(store, { workers: 4, isolation: 'process' }).where(1)).toBe('on 1 worker process');
  });

  it('refuses a pool over a store that is not a shared directory', () => {
    const memory = { read: vi.fn() } as unknown as ArtifactStore;
    expect(() => choosePlacement(memory, { workers: 2 })).toThrow('worker threads need a DirectoryArtifactStore (a shared directory)');
  });
});

describe('placeUnits', () => {
  it('asks the placement for the units the store lacks only, says so first, and returns their keys', async () => {
    const units = ['a', 'b', 'c'].map((key) => ({ key, defenseIndex: 0, role: 'target' }));
    const cached = new Set(['b']);
    const fakeStore = { read: async (key: string) => (cached.has(key) ? {} : undefined) } as unknown as ArtifactStore;
    const plan = { units } as unknown as RunPlan;
    const train = vi.fn(async () => undefined);
    const lines: string[] = [];
    const trained = await placeUnits(plan, fakeStore, { where: (n) => `on ${n} fake workers`, train }, (l) => lines.push(l));
    expect([...trained]).toEqual(['a', 'c']);
    expect(train).toHaveBeenCalledWith({ plan, units: [units[0], units[2]], store: fakeStore });
    expect(lines).toEqual(['models     1 of 3 in the cache; training 2 on 2 fake workers']);
    cached.add('a').add('c');
    const none = await placeUnits(plan, fakeStore, { where: () => 'x', train }, (l) => lines.push(l));
    expect(none.size).toBe(0);
    expect(train).toHaveBeenCalledTimes(1);
    expect(lines.at(-1)).toBe('models     3 of 3 in the cache; nothing to train');
  });
});
