import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { samOptimizer } from './sam-optimizer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const h = () =>
  tf.tensor2d([
    [3, 1],
    [1, 2],
  ]);
const quadratic = (w: tf.Variable, hm: tf.Tensor2D) => () => tf.mul(0.5, tf.sum(tf.mul(w, tf.reshape(tf.matMul(hm, tf.reshape(w, [2, 1])), [2])))) as tf.Scalar;

describe('samOptimizer (wrapping a tf.Optimizer)', () => {
  it('SAM step on ½wᵀHw equals the hand derivation [0.77763932, −0.9] (see sam-plugin.test.ts)', () => {
    const w = tf.variable(tf.tensor1d([1, -1]));
    const hm = h();
    const base = tf.train.sgd(0.1);
    const loss = samOptimizer(base, { rho: 0.1 }).minimize(quadratic(w, hm));
    expect(loss.dataSync()[0]).toBeCloseTo(0.5 * (3 - 2 + 2), 6); // ½wᵀHw at w₀ = 1.5
    const got = w.dataSync();
    expect(got[0]).toBeCloseTo(0.77763932, 6);
    expect(got[1]).toBeCloseTo(-0.9, 6);
    tf.dispose([w, hm, loss]);
    base.dispose();
  });
  it('SharpReg form (λ 1.5, ξ 0.3) with an explicit varList; snapshot of statistics; no leaks', () => {
    const w = tf.variable(tf.tensor1d([1, -1]));
    const stat = tf.variable(tf.tensor1d([5]), false);
    const hm = h();
    const base = tf.train.sgd(0.1);
    const opt = samOptimizer(base, { rho: 0.1, lambda: 1.5, xi: 0.3, statistics: [stat] });
    let calls = 0;
    const f = () => {
      calls += 1;
      stat.assign(tf.add(stat, 1));
      return quadratic(w, hm)();
    };
    const before = tf.memory().numTensors;
    opt.minimize(f, [w]).dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(calls).toBe(2);
    expect(stat.dataSync()[0]).toBe(6); // only the first pass counts
    expect(w.dataSync()[0]).toBeCloseTo(1 - 0.1 * 1.0645898, 6);
    tf.dispose([w, stat, hm]);
    base.dispose();
  });
  it('validates options', () => {
    const base = tf.train.sgd(0.1);
    expect(() => samOptimizer(base, { rho: -1 })).toThrow(/samOptimizer: rho must be a number in \[0, Infinity\], got -1/);
    expect(() => samOptimizer(base, { xi: 0.3 })).toThrow(/xi needs lambda/);
    base.dispose();
  });
});
