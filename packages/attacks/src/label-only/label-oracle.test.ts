import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useCpu } from '../test-utils/setup';
import { labelOracle } from './label-oracle';

beforeAll(useCpu);

describe('labelOracle', () => {
  it('returns the argmax of each row, the same in any batch size', async () => {
    const logits = [
      [0.1, 2, -1],
      [3, 1, 2],
      [0, 0, 5],
      [1, 4, 4],
      [-1, -2, -3],
    ];
    const predict = (x: tf.Tensor) => tf.tidy(() => tf.matMul(x as tf.Tensor2D, tf.eye(3)));
    const x = tf.tensor2d(logits);
    // Argmax by hand (first maximiser on a tie): 1, 0, 2, 1, 0.
    expect(Array.from(await labelOracle(predict)(x))).toEqual([1, 0, 2, 1, 0]);
    const before = tf.memory().numTensors;
    expect(Array.from(await labelOracle(predict, { batchSize: 2 })(x))).toEqual([1, 0, 2, 1, 0]);
    expect(tf.memory().numTensors).toBe(before);
    expect(() => labelOracle(predict, { batchSize: 0 })).toThrow(/labelOracle: batchSize must be a positive integer, got 0/);
    x.dispose();
  });
});
