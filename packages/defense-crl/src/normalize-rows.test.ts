import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logitNormalizationFloor } from './logit-normalization-floor';
import { normalizeRows } from './normalize-rows';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('normalizeRows', () => {
  it('[3, 4] with t = 0.5 → [3, 4]/(1 + 0.5·(5 + 1e-7)) = [0.857142…, 1.142857…] (hand calculation)', () => {
    const v = tf.tensor2d([
      [3, 4],
      [0, 0],
    ]);
    const n = normalizeRows(v, 0.5);
    const got = n.dataSync();
    expect(got[0]).toBeCloseTo(0.8571428, 6);
    expect(got[1]).toBeCloseTo(1.1428571, 6);
    expect([got[2], got[3]]).toEqual([0, 0]);
    tf.dispose([v, n]);
  });
  it('keeps every row norm below 1/t and is the identity for t = 0', () => {
    const v = tf.randomNormal([20, 6], 0, 50, 'float32', 3) as tf.Tensor2D;
    const n = normalizeRows(v, 0.2);
    const norms = tf.norm(n, 'euclidean', 1);
    expect(Math.max(...norms.dataSync())).toBeLessThan(5);
    const same = normalizeRows(v, 0);
    expect(Array.from(same.dataSync())).toEqual(Array.from(v.dataSync()));
    tf.dispose([v, n, norms, same]);
  });
  it('rejects a negative t and leaks nothing', () => {
    const v = tf.ones([2, 2]);
    const before = tf.memory().numTensors;
    expect(() => normalizeRows(v, -1)).toThrow(/normalizeRows: t must be a number in \[0, Infinity\], got -1/);
    normalizeRows(v, 1).dispose();
    expect(tf.memory().numTensors).toBe(before);
    v.dispose();
  });
});

describe('logitNormalizationFloor (docs/protocol.md A18)', () => {
  it('matches the protocol: ≈ 1.42 for t = 1, C = 10 and ≈ 3.62 for t = 1, C = 100', () => {
    // float64 values of log1p((C−1)·exp(−√(C/(C−1))/t))
    expect(logitNormalizationFloor(1, 10)).toBeCloseTo(1.4198685933274915, 12);
    expect(logitNormalizationFloor(1, 100)).toBeCloseTo(3.6173041932611083, 12);
    expect(logitNormalizationFloor(0, 100)).toBe(0);
  });
  it('is attained: CE of the best normalised logit vector approaches the floor', () => {
    // z = r·(√((C−1)/C)·e_y − (1/√(C(C−1)))·(1 − e_y)) has norm r; with r → ∞, ‖z̃‖ → 1/t.
    const c = 10;
    const r = 1e6;
    const zy = r * Math.sqrt((c - 1) / c);
    const zo = -r / Math.sqrt(c * (c - 1));
    const s = 1 / (1 + 1 * r); // t = 1
    const ce = Math.log(1 + (c - 1) * Math.exp((zo - zy) * s));
    expect(ce).toBeCloseTo(logitNormalizationFloor(1, c), 5);
  });
  it('rejects bad arguments', () => {
    expect(() => logitNormalizationFloor(1, 1)).toThrow(/numClasses must be an integer ≥ 2, got 1/);
    expect(() => logitNormalizationFloor(-1, 10)).toThrow(/t must be/);
  });
});
