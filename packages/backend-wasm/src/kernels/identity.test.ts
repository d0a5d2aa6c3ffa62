import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupWasm } from '../test-utils/backends';

describe('Identity and same-dtype Cast share data', () => {
  beforeAll(setupWasm);

  const numDataIds = (): number => (tf.backend() as unknown as { numDataIds(): number }).numDataIds();

  it('clone and cast(float32) add no heap data and survive disposal of the source', async () => {
    await tf.setBackend('wasm');
    const x = tf.tensor2d([1, -2, 3.5, 4], [2, 2]);
    const before = numDataIds();
    const copy = tf.clone(x);
    const same = tf.cast(x, 'float32');
    expect(numDataIds()).toBe(before);
    x.dispose();
    expect(Array.from(copy.dataSync())).toEqual([1, -2, 3.5, 4]);
    expect(Array.from(same.dataSync())).toEqual([1, -2, 3.5, 4]);
    tf.dispose([copy, same]);
    expect(numDataIds()).toBe(before - 1);
  });

  it('real casts convert (bool: x ≠ 0, where the stock kernel gives 254 for -2.2)', async () => {
    await tf.setBackend('wasm');
    const x = tf.tensor1d([1.7, -2.2, 0]);
    const i = tf.cast(x, 'int32');
    const b = tf.cast(x, 'bool');
    expect(i.dtype).toBe('int32');
    expect(Array.from(i.dataSync())).toEqual([1, -2, 0]);
    expect(Array.from(b.dataSync())).toEqual([1, 1, 0]);
    tf.dispose([x, i, b]);
  });
});
