import * as tf from '@tensorflow/tfjs-core';
import { seededRandom } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { groupNormalize, groupNormLayer } from './group-norm-layer';
import type { RunContext } from './layer';
import { ParameterStore } from './parameter-store';
import { useCpu } from './test-utils/classifier-checks';

beforeAll(useCpu);

const ctx: RunContext = { training: true, updateStatistics: true, nextSeed: () => 0 };

/** PyTorch's GroupNorm without affine, written out with loops over NHWC values (float64). */
function naiveGroupNorm(values: Float32Array, [n, h, w, c]: [number, number, number, number], groups: number): Float64Array {
  const out = new Float64Array(values.length);
  const per = c / groups;
  for (let i = 0; i < n; i++) {
    for (let g = 0; g < groups; g++) {
      const at: number[] = [];
      for (let p = 0; p < h * w; p++) for (let k = g * per; k < (g + 1) * per; k++) at.push(i * h * w * c + p * c + k);
      const mean = at.reduce((s, j) => s + values[j]!, 0) / at.length;
      const variance = at.reduce((s, j) => s + (values[j]! - mean) ** 2, 0) / at.length;
      for (const j of at) out[j] = (values[j]! - mean) / Math.sqrt(variance + 1e-5);
    }
  }
  return out;
}

describe('groupNormalize', () => {
  it('known answer: one example, 2×1 positions, 2 channels', () => {
    // Channel 0 holds 1, 3 and channel 1 holds 2, 5. Two groups: (v − mean)/√(var + 1e-5) per channel,
    // i.e. ∓1/√1.00001 and ∓1.5/√2.25001. One group: mean 2.75, biased variance 8.75/4 = 2.1875.
    const x = tf.tensor4d([1, 2, 3, 5], [1, 2, 1, 2]);
    const two = Array.from(groupNormalize(x, 2).dataSync());
    const one = Array.from(groupNormalize(x, 1).dataSync());
    const expectedTwo = [-1 / Math.sqrt(1.00001), -1.5 / Math.sqrt(2.25001), 1 / Math.sqrt(1.00001), 1.5 / Math.sqrt(2.25001)];
    const expectedOne = [1, 2, 3, 5].map((v) => (v - 2.75) / Math.sqrt(2.1875 + 1e-5));
    two.forEach((v, i) => expect(v).toBeCloseTo(expectedTwo[i]!, 6));
    one.forEach((v, i) => expect(v).toBeCloseTo(expectedOne[i]!, 6));
    x.dispose();
  });

  it.each([1, 2, 3, 6])('equals the loop definition with %i groups, and leaks nothing', (groups) => {
    const shape: [number, number, number, number] = [3, 4, 2, 6];
    const x = tf.randomNormal(shape, 1, 2, 'float32', groups);
    const before = tf.memory().numTensors;
    const y = groupNormalize(x, groups);
    expect(tf.memory().numTensors).toBe(before + 1);
    const want = naiveGroupNorm(x.dataSync() as Float32Array, shape, groups);
    const got = y.dataSync();
    for (let i = 0; i < want.length; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThan(1e-5);
    tf.dispose([x, y]);
  });

  it('normalises each example on its own: an example gives the same output alone and in a batch', () => {
    const x = tf.randomNormal([4, 3, 3, 4], 0, 1, 'float32', 9);
    const batch = groupNormalize(x, 2);
    const alone = groupNormalize(tf.slice(x, 2, 1), 2);
    expect(Array.from(alone.dataSync())).toEqual(Array.from(tf.slice(batch, 2, 1).dataSync()));
    tf.dispose([x, batch, alone]);
  });
});

describe('groupNormLayer', () => {
  it('γ = 1, β = 0 at start, a groupnorm parameter group, no state; output x̂·γ + β; leaks nothing', () => {
    const store = new ParameterStore('gn', seededRandom(1));
    const layer = groupNormLayer(store, 'bn1', 4, 2);
    expect(store.groups.map((g) => `${g.name}:${g.kind}`)).toEqual(['bn1:groupnorm']);
    expect(store.state).toEqual([]);
    const [gamma, beta] = store.trainable;
    expect(Array.from(gamma!.dataSync())).toEqual([1, 1, 1, 1]);
    gamma!.assign(tf.tensor1d([1, 2, 3, 4]));
    beta!.assign(tf.tensor1d([0, -1, 0.5, 0]));
    const x = tf.randomNormal([2, 3, 3, 4], 0, 1, 'float32', 3);
    const before = tf.memory().numTensors;
    const y = tf.tidy(() => layer(x, ctx));
    expect(tf.memory().numTensors).toBe(before + 1);
    const want = tf.tidy(() => tf.add(tf.mul(groupNormalize(x, 2), tf.tensor1d([1, 2, 3, 4])), tf.tensor1d([0, -1, 0.5, 0])));
    expect(Array.from(y.dataSync())).toEqual(Array.from(want.dataSync()));
    tf.dispose([x, y, want, ...store.trainable]);
  });
});

describe('groupNormalize gradient', () => {
  // Gradient check of the custom gradient: against automatic differentiation of the textbook
  // formula (tf.moments over positions and the group's channels), for a loss that weights every
  // output differently.
  const reference = (x: tf.Tensor, groups: number) => {
    const [n, h, w, c] = x.shape as [number, number, number, number];
    const grouped = tf.reshape(x, [n, h * w, groups, c / groups]);
    const { mean, variance } = tf.moments(grouped, [1, 3], true);
    return tf.reshape(tf.div(tf.sub(grouped, mean), tf.sqrt(tf.add(variance, 1e-5))), x.shape);
  };
  it.each([1, 2, 6])('equals automatic differentiation of the definition (%i groups), and leaks nothing', (groups) => {
    const x = tf.randomNormal([3, 4, 2, 6], 0.5, 2, 'float32', 20 + groups);
    const weights = tf.randomNormal([3, 4, 2, 6], 0, 1, 'float32', 30 + groups);
    const loss = (f: (t: tf.Tensor) => tf.Tensor) => (t: tf.Tensor) => tf.sum(tf.mul(tf.sin(f(t)), weights)) as tf.Scalar;
    const want = tf.grad(loss((t) => reference(t, groups)))(x);
    const before = tf.memory().numTensors;
    const got = tf.grad(loss((t) => groupNormalize(t, groups)))(x);
    expect(tf.memory().numTensors).toBe(before + 1);
    const [a, b] = [got.dataSync(), want.dataSync()];
    for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThan(2e-5 * Math.max(1, Math.abs(b[i]!)));
    tf.dispose([x, weights, want, got]);
  });
});
