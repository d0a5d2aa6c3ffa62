import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, it } from 'vitest';
import { expectFallbackThrows, expectMatchesCpu, randomTensor, setupNative } from '../test-utils/backends';
import { describeNative } from '../test-utils/native-available';
import { RELU_GRAD, TANH_GRAD } from './activation-gradients';

const specials = [NaN, Infinity, -Infinity, 0, -0, 1e-30, -1e-30, 0.5, -0.5, 7, -7, 20, -20];

describeNative('native fused Relu and Tanh gradients vs the cpu backend', () => {
  beforeAll(setupNative);

  for (const [name, kernel, op] of [
    ['Relu', RELU_GRAD, tf.relu],
    ['Tanh', TANH_GRAD, tf.tanh],
  ] as const) {
    it(`${name}: tf.grad through ${kernel}, small and large enough for threads`, async () => {
      expect.hasAssertions();
      for (const [i, shape] of [
        [3, 5, 7],
        [41, 1000],
      ].entries()) {
        await expectMatchesCpu(() => tf.grad((x: tf.Tensor) => tf.sum(tf.mul(op(x), randomTensor(shape, 10 + i))))(tf.mul(randomTensor(shape, 20 + i), 4)), {
          native: [kernel],
        });
      }
    });

    it(`${name}: NaN, ±Inf and ±0 inputs`, async () => {
      expect.hasAssertions();
      await expectMatchesCpu(() => tf.grad((x: tf.Tensor) => tf.sum(tf.mul(op(x), randomTensor([specials.length], 30))))(tf.tensor1d(specials)), {
        native: [kernel],
      });
    });

    it(`${name}: dy and ${kernel === RELU_GRAD ? 'x' : 'y'} of different shapes (through runKernel) fall back; the wasm backend has no such kernel`, async () => {
      expect.hasAssertions();
      const other = kernel === RELU_GRAD ? 'x' : 'y';
      await expectFallbackThrows(
        () => tf.engine().runKernel(kernel, { dy: randomTensor([2, 3], 40), [other]: randomTensor([3, 2], 41) }) as tf.Tensor,
        kernel,
        /shapes differ/,
        new RegExp(`has no ${kernel} kernel`),
      );
    });
  }
});
