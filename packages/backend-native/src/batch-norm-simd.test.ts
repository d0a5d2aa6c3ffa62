import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadNativeAddon } from './load-native-addon';
import type { NativeAddon } from './native-addon';
import { describeNative } from './test-utils/native-available';

// The batch norm row loops (and the column sums of Sum / Mean) are compiled for x86-64's baseline,
// AVX2 and AVX-512 (native/batch_norm_loops.cc). Each level this CPU runs is checked against a float64 reference, and the levels
// against each other: they vectorise across channels only, so every per-channel sum adds the same terms
// in the same order and the outputs must be bit-equal.

const LEVELS = ['baseline', 'avx2', 'avx512'] as const;
type Level = (typeof LEVELS)[number];

/** Deterministic values in [-1, 1) (a 32-bit LCG). */
function values(n: number, seed: number, shift = 0, spread = 1): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = shift + spread * ((s / 2 ** 32) * 2 - 1);
  }
  return out;
}

interface Case {
  name: string;
  rows: number;
  channels: number;
  shift: number;
  relu: boolean;
  /** Tolerance of everything but the mean and variance (default 2e-5, as theirs). */
  gradientTolerance?: number;
}

// Channel counts with an unrolled loop (32, 512) and without (37, 3); rows that leave a partial block
// of 32 and are large enough for every thread; a mean far from 0 (the one-pass variance must not cancel).
const CASES: Case[] = [
  { name: '2053×32, relu', rows: 2053, channels: 32, shift: 0.3, relu: true },
  { name: '1031×37, relu', rows: 1031, channels: 37, shift: -0.5, relu: true },
  { name: '129×512, linear', rows: 129, channels: 512, shift: 0, relu: false },
  { name: '7×3, linear (one thread, partial block)', rows: 7, channels: 3, shift: 2, relu: false },
  // Here the statistics must stay at 2e-5 (no cancellation in the one-pass variance). The rest carries
  // float32's rounding near 1,000 whatever the algorithm: y = x·mul + add rounds x·mul ≈ 1,700 (ulp
  // 1.2e-4) before adding add ≈ −1,700 (as tfjs's batchNorm kernel computes), and the gradient gets the
  // mean as float32 (off by up to 3e-5, a bias of every x − mean). Linear: with ReLU, that rounding
  // flips the mask of elements within 1e-4 of 0, which a float64 reference cannot follow.
  { name: '3001×32, mean 1000 ± 1, linear', rows: 3001, channels: 32, shift: 1000, relu: false, gradientTolerance: 3e-4 },
];

interface Outputs {
  y: Float32Array;
  mean: Float32Array;
  variance: Float32Array;
  dx: Float32Array;
  dScale: Float32Array;
  dOffset: Float32Array;
}

function run(addon: NativeAddon, c: Case): Outputs {
  const size = c.rows * c.channels;
  const x = values(size, 11 + c.channels, c.shift, 1);
  const scale = values(c.channels, 5, 1, 0.5);
  const offset = values(c.channels, 6);
  const dy = values(size, 7 + c.rows);
  const o: Outputs = {
    y: new Float32Array(size),
    mean: new Float32Array(c.channels),
    variance: new Float32Array(c.channels),
    dx: new Float32Array(size),
    dScale: new Float32Array(c.channels),
    dOffset: new Float32Array(c.channels),
  };
  addon.batchNormTrain(x, scale, offset, o.y, o.mean, o.variance, c.rows, c.channels, 1e-5, c.relu);
  addon.batchNormTrainGrad(dy, x, o.mean, o.variance, scale, o.dx, o.dScale, o.dOffset, c.rows, c.channels, 1e-5, c.relu ? o.y : null);
  return o;
}

/** The same in float64: two-pass statistics, the textbook gradient through them. */
function reference(c: Case): Record<keyof Outputs, Float64Array> {
  const { rows, channels: C } = c;
  const x = values(rows * C, 11 + C, c.shift, 1);
  const scale = values(C, 5, 1, 0.5);
  const offset = values(C, 6);
  const dy = values(rows * C, 7 + rows);
  const mean = new Float64Array(C);
  const variance = new Float64Array(C);
  for (let r = 0; r < rows; r++) for (let k = 0; k < C; k++) mean[k]! += x[r * C + k]! / rows;
  for (let r = 0; r < rows; r++) for (let k = 0; k < C; k++) variance[k]! += (x[r * C + k]! - mean[k]!) ** 2 / rows;
  const y = new Float64Array(rows * C);
  const g = new Float64Array(rows * C);
  for (let i = 0; i < rows * C; i++) {
    const k = i % C;
    const v = ((x[i]! - mean[k]!) / Math.sqrt(variance[k]! + 1e-5)) * scale[k]! + offset[k]!;
    y[i] = c.relu ? Math.max(v, 0) : v;
    g[i] = c.relu && v <= 0 ? 0 : dy[i]!;
  }
  const s1 = new Float64Array(C);
  const s2 = new Float64Array(C);
  for (let i = 0; i < rows * C; i++) {
    const k = i % C;
    s1[k]! += g[i]!;
    s2[k]! += g[i]! * (x[i]! - mean[k]!);
  }
  const dx = new Float64Array(rows * C);
  const dScale = new Float64Array(C);
  for (let k = 0; k < C; k++) dScale[k] = s2[k]! / Math.sqrt(variance[k]! + 1e-5);
  for (let i = 0; i < rows * C; i++) {
    const k = i % C;
    const inv = 1 / Math.sqrt(variance[k]! + 1e-5);
    dx[i] = scale[k]! * inv * (g[i]! - s1[k]! / rows - ((x[i]! - mean[k]!) * (s2[k]! * inv * inv)) / rows);
  }
  return { y, mean, variance, dx, dScale, dOffset: s1 };
}

/** max |a − b| ≤ tol · max(1, max |b|), per output. */
function expectNear(name: string, a: Float32Array, b: Float64Array, tol: number): void {
  let worst = 0;
  let scale = 1;
  for (let i = 0; i < b.length; i++) {
    worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
    scale = Math.max(scale, Math.abs(b[i]!));
  }
  expect(worst / scale, name).toBeLessThanOrEqual(tol);
}

describeNative('batch norm loops per instruction set (baseline, AVX2, AVX-512)', () => {
  let addon: NativeAddon;
  let runnable: Level[];
  beforeAll(() => {
    addon = loadNativeAddon();
    addon.setNumThreads(2);
    runnable = LEVELS.filter((level) => {
      try {
        addon.setSimd(level);
        return true;
      } catch {
        return false;
      }
    });
  });
  afterAll(() => addon.setSimd('auto'));

  it('runs the baseline everywhere, AVX2 wherever the addon loads, and picks the widest by default', () => {
    expect(runnable).toContain('baseline');
    expect(runnable).toContain('avx2');
    addon.setSimd('auto');
    expect(addon.info().simd).toBe(runnable[runnable.length - 1]);
  });

  for (const c of CASES) {
    it(`${c.name}: every level matches float64 and the levels are bit-equal`, () => {
      const ref = reference(c);
      const results = runnable.map((level) => {
        addon.setSimd(level);
        expect(addon.info().simd).toBe(level);
        return run(addon, c);
      });
      for (const [i, out] of results.entries()) {
        for (const key of Object.keys(ref) as (keyof Outputs)[]) {
          expectNear(`${runnable[i]} ${key}`, out[key], ref[key], key === 'mean' || key === 'variance' ? 2e-5 : (c.gradientTolerance ?? 2e-5));
        }
        if (i > 0) for (const key of Object.keys(ref) as (keyof Outputs)[]) expect(out[key], `${runnable[i]} vs baseline: ${key}`).toEqual(results[0]![key]);
      }
    });
  }

  for (const [rows, inner, outer] of [
    [2053, 32, 1],
    [1031, 37, 2],
    [5, 3, 1],
  ] as const) {
    it(`Sum and Mean over columns ([${outer}, ${rows}, ${inner}] over the middle axis): every level matches float64, bit-equal`, () => {
      const x = values(outer * rows * inner, 3 + inner, 0.25, 1);
      const expected = new Float64Array(outer * inner);
      for (let o = 0; o < outer; o++) for (let m = 0; m < rows; m++) for (let i = 0; i < inner; i++) expected[o * inner + i]! += x[(o * rows + m) * inner + i]!;
      const results = runnable.map((level) => {
        addon.setSimd(level);
        const sum = new Float32Array(outer * inner);
        const mean = new Float32Array(outer * inner);
        addon.reduce('sum', x, outer, rows, inner, sum);
        addon.reduce('mean', x, outer, rows, inner, mean);
        return { sum, mean };
      });
      for (const [k, r] of results.entries()) {
        expectNear(`${runnable[k]} sum`, r.sum, expected, 2e-6);
        expectNear(
          `${runnable[k]} mean`,
          r.mean,
          expected.map((v) => v / rows),
          2e-6,
        );
        if (k > 0) expect(r, `${runnable[k]} vs baseline`).toEqual(results[0]);
      }
    });
  }

  it('setSimd rejects an unknown name with a RangeError naming it', () => {
    expect(() => addon.setSimd('sse9' as 'avx2')).toThrow(/^setSimd: name: expected avx512, avx2, baseline or auto, got 'sse9'/);
    expect(() => addon.setSimd(3 as unknown as 'avx2')).toThrow(TypeError);
  });
});
