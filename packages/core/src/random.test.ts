import { describe, expect, it } from 'vitest';
import { deriveSeed, seededRandom } from './random';
import { MiaError } from './errors';

describe('seededRandom', () => {
  it('gives the same stream for the same seed and a different one for another seed', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const sa = Array.from({ length: 5 }, () => a.uint32());
    const sb = Array.from({ length: 5 }, () => b.uint32());
    const sc = Array.from({ length: 5 }, () => c.uint32());
    expect(sa).toEqual(sb);
    expect(sa).not.toEqual(sc);
  });

  it('produces uniform floats in [0, 1) with the right mean', () => {
    const r = seededRandom(1);
    let sum = 0;
    for (let i = 0; i < 20000; i++) {
      const v = r.next();
      expect(v >= 0 && v < 1).toBe(true);
      sum += v;
    }
    expect(Math.abs(sum / 20000 - 0.5)).toBeLessThan(0.01);
  });

  it('permutation contains every index exactly once', () => {
    const p = seededRandom(3).permutation(1000);
    expect(Array.from(p).sort((x, y) => x - y)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(Array.from(p.slice(0, 10))).not.toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('normal variates have mean 0 and std 1', () => {
    const r = seededRandom(5);
    const n = 20000;
    let s = 0;
    let s2 = 0;
    for (let i = 0; i < n; i++) {
      const v = r.normal();
      s += v;
      s2 += v * v;
    }
    expect(Math.abs(s / n)).toBeLessThan(0.03);
    expect(Math.abs(Math.sqrt(s2 / n - (s / n) ** 2) - 1)).toBeLessThan(0.03);
  });

  it('int is unbiased over a small range and rejects bad n', () => {
    const r = seededRandom(11);
    const counts = [0, 0, 0];
    for (let i = 0; i < 30000; i++) counts[r.int(3)]!++;
    for (const c of counts) expect(Math.abs(c - 10000)).toBeLessThan(400);
    expect(() => r.int(0)).toThrow(/Random.int: n must be an integer in \[1, 2\^32\], got 0/);
  });

  it('ends its rejection loops after 64 rejected draws in a row, naming the stream', () => {
    // A stream whose draws are all rejected (limit for n = 3 is 2^32 − 1; u = 0 for Box–Muller); it
    // refuses a 1001st draw, so an unbounded loop fails here instead of hanging.
    const stuck = (value: number) => {
      let draws = 0;
      return () => {
        if (++draws > 1000) throw new Error('drawn more than 1000 times');
        return value;
      };
    };
    const r = seededRandom(5);
    r.uint32 = stuck(4294967295);
    expect(() => r.int(3)).toThrow('Random.int: 64 draws in a row were rejected (each with probability ≤ ½): the stream of seed 5 does not draw uniformly');
    r.next = stuck(0);
    expect(() => r.normal()).toThrow(MiaError);
    expect(() => seededRandom(5).int(3)).not.toThrow();
  });

  it('fork is deterministic, independent of the parent position, and label-sensitive', () => {
    const r = seededRandom(9);
    const f1 = r.fork('shuffle', 2).uint32();
    r.uint32();
    expect(r.fork('shuffle', 2).uint32()).toBe(f1);
    expect(r.fork('shuffle', 3).uint32()).not.toBe(f1);
    expect(deriveSeed(9, 'a')).toBe(deriveSeed(9, 'a'));
    expect(deriveSeed(9, 'a')).not.toBe(deriveSeed(9, 'b'));
  });

  it('getState / setState resumes the stream exactly', () => {
    const r = seededRandom(21);
    r.uint32();
    const state = r.getState();
    const next = [r.uint32(), r.uint32()];
    r.setState(state);
    expect([r.uint32(), r.uint32()]).toEqual(next);
  });

  it('rejects a non-integer seed', () => {
    expect(() => seededRandom(1.5)).toThrow(/seededRandom: seed must be an integer or a string, got 1.5/);
  });
});
