import { describe, expect, it } from 'vitest';
// Test-only relative import (no package dependency): the copy must stay stream-identical to core's.
import { seededRandom } from '../../core/src/random';
import { seededUniform } from './seeded-uniform';

describe('seededUniform', () => {
  it('produces the same stream as @mia/core seededRandom(seed).next()', () => {
    for (const seed of [0, 1, 42, 2 ** 32 - 1]) {
      const ours = seededUniform(seed);
      const core = seededRandom(seed);
      for (let i = 0; i < 100; i++) expect(ours()).toBe(core.next());
    }
  });

  it('is deterministic per seed, differs across seeds, stays in [0, 1) with mean ≈ ½', () => {
    const a = seededUniform(7);
    const b = seededUniform(7);
    const c = seededUniform(8);
    const xs = Array.from({ length: 10_000 }, () => a());
    expect(xs.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(xs[0]).not.toBe(c());
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    // Mean of 10 000 uniforms: sd = sqrt(1/12/10 000) ≈ 0.0029; 5 sd band.
    expect(Math.abs(xs.reduce((s, x) => s + x, 0) / xs.length - 0.5)).toBeLessThan(0.015);
  });

  it('rejects a non-integer seed', () => {
    expect(() => seededUniform(1.5)).toThrow('seededUniform: seed must be an integer, got 1.5');
    expect(() => seededUniform('1' as never)).toThrow('seededUniform: seed must be an integer, got "1"');
  });
});
