import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';

describe('@mia/backend-wasm/register', () => {
  it('registers the training kernels on import, before any backend is set', async () => {
    expect(tf.getKernel('Conv2DBackpropFilter', 'wasm')).toBeUndefined();
    await import('./register');
    expect(tf.getKernel('Conv2DBackpropFilter', 'wasm')).toBeDefined();
    // The stock setupFunc is kept, so the replaced kernels work once the backend initialises.
    await tf.setBackend('wasm');
    const y = tf.matMul(tf.tensor2d([1, 2, 3, 4], [2, 2]), tf.tensor2d([1, 0, 0, 1], [2, 2]), true, false);
    expect(Array.from(y.dataSync())).toEqual([1, 3, 2, 4]);
  });
});
