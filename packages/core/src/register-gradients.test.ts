import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { TFJS_CORE_VERSION } from './generated/tfjs-gradients.js';
import './register-gradients';

describe('bundled tfjs-core gradients', () => {
  it('come from the installed tfjs-core version (regenerate with generate:gradients otherwise)', () => {
    const installed = (createRequire(import.meta.url)('@tensorflow/tfjs-core/package.json') as { version: string }).version;
    expect(TFJS_CORE_VERSION).toBe(installed);
  });

  it('are registered for the kernels training uses', async () => {
    await tf.setBackend('cpu');
    for (const kernel of ['Mean', 'Conv2D', 'BatchMatMul', 'Tanh', 'Relu', 'Softmax', 'Max', 'Sum']) {
      expect(tf.getGradient(kernel), kernel).toBeDefined();
    }
    const g = tf.grad((x: tf.Tensor) => tf.mean(tf.square(x)))(tf.tensor1d([1, 2, 3]));
    expect(Array.from(g.dataSync()).map((v) => +v.toFixed(6))).toEqual([0.666667, 1.333333, 2]);
  });
});
