import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, onBackend, randomValues, setupWasm } from '../test-utils/backends';

/** Gradients of Σ w·batchNorm(x, mean, variance, offset, scale) with respect to all five inputs. */
function bnGrads(xShape: number[], withScale: boolean): () => tf.Tensor {
  const c = xShape[xShape.length - 1]!;
  const size = tf.util.sizeFromShape(xShape);
  return () => {
    const x = tf.tensor(randomValues(size, 600), xShape);
    const w = tf.tensor(randomValues(size, 601), xShape);
    const mean = tf.tensor1d(randomValues(c, 602));
    const variance = tf.add(tf.abs(tf.tensor1d(randomValues(c, 603))), 0.2) as tf.Tensor1D;
    const offset = tf.tensor1d(randomValues(c, 604));
    const scale = tf.tensor1d(randomValues(c, 605));
    const f = (...ts: tf.Tensor[]): tf.Scalar => tf.sum(tf.mul(w, tf.batchNorm(ts[0]!, ts[1]!, ts[2]!, ts[3]!, ts[4] ?? scale, 1e-3)));
    const grads = tf.grads(f)(withScale ? [x, mean, variance, offset, scale] : [x, mean, variance, offset]);
    // One tensor holding all gradients.
    return tf.concat(grads.map((g) => tf.reshape(g, [-1])));
  };
}

describe('FusedBatchNorm gradient on wasm (5 passes)', () => {
  beforeAll(setupWasm);

  for (const [shape, withScale] of [
    [[3, 5, 7, 4], true],
    [[1, 3, 3, 5], true],
    [[2, 4, 4, 3], false], // scale not differentiated (tfjs cannot save an absent scale)
    [[6, 9], true],
  ] as const) {
    it(`matches tfjs-core's gradient on cpu: x ${shape.join('×')}, ${withScale ? 'with' : 'without'} the scale gradient`, async () => {
      const run = bnGrads([...shape], withScale);
      expectClose(await onBackend('wasm', run), await onBackend('cpu', run));
    });
  }

  it('leaks no tensor', async () => {
    await tf.setBackend('wasm');
    const before = tf.memory().numTensors;
    tf.dispose(tf.tidy(bnGrads([2, 3, 3, 2], true)));
    expect(tf.memory().numTensors).toBe(before);
  });
});
