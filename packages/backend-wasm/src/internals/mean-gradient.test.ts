import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectClose, onBackend, randomValues, setupWasm } from '../test-utils/backends';

/** d/dx Σ w·mean(x, axis) — the gradient that batch-norm statistics send back to x. */
function meanGrad(xShape: number[], axis: number[], keepDims: boolean): () => tf.Tensor {
  return () => {
    const x = tf.tensor(randomValues(tf.util.sizeFromShape(xShape), 700), xShape);
    const m = tf.mean(x, axis, keepDims);
    const w = tf.tensor(randomValues(m.size, 701), m.shape);
    return tf.grad((t: tf.Tensor) => tf.sum(tf.mul(w, tf.mean(t, axis, keepDims))))(x);
  };
}

describe('Mean gradient on wasm (one tile)', () => {
  beforeAll(setupWasm);
  // Each test asserts through expectClose (cpu vs wasm within 1e-4); fail any test that asserts nothing.
  beforeEach(() => {
    expect.hasAssertions();
  });

  for (const [shape, axis, keepDims] of [
    [[3, 5, 7, 4], [0, 1, 2], false],
    [[1, 3, 3, 5], [0, 1, 2], true],
    [[6, 9], [0], false],
    [[2, 3, 4], [1], true],
    [[3, 4, 5, 6], [1, 2], false], // global average pooling over H, W
    [[2, 3, 4, 5], [0, 2], false], // two runs: the stock Tile
    [[2, 3, 4], [0, 1, 2], false], // every axis
  ] as const) {
    it(`matches tfjs-core's gradient on cpu: x ${shape.join('×')}, axis ${axis.join(',')}, keepDims ${keepDims}`, async () => {
      const run = meanGrad([...shape], [...axis], keepDims);
      expectClose(await onBackend('wasm', run), await onBackend('cpu', run));
    });
  }
});
