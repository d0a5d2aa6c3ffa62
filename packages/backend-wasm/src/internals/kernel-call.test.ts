import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomValues, setupWasm } from '../test-utils/backends';
import { rotationSplit, transpose } from './kernel-call';
import type { WasmBackend } from './wasm-backend';

type Backend = WasmBackend & { readSync(id: object): Float32Array | Int32Array; numDataIds(): number };

describe('transpose (JavaScript path for 2-D-reducible permutations)', () => {
  beforeAll(setupWasm);

  it('recognises exactly the permutations that move a trailing group of axes to the front', () => {
    expect(
      [
        [1, 0],
        [3, 0, 1, 2],
        [2, 0, 1],
        [1, 2, 0],
        [2, 3, 0, 1],
      ].map(rotationSplit),
    ).toEqual([1, 3, 2, 1, 2]);
    expect([[0, 1], [0, 2, 1], [1, 0, 2], [3, 1, 2, 0], [1, 2, 0, 3], [0]].map(rotationSplit)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  // Sizes that are not multiples of the 64×16 blocks, a 1-wide axis, and both dtypes.
  const cases: { shape: number[]; perm: number[]; dtype: 'float32' | 'int32' }[] = [
    { shape: [70, 33], perm: [1, 0], dtype: 'float32' },
    { shape: [3, 5, 7, 19], perm: [3, 0, 1, 2], dtype: 'float32' },
    { shape: [65, 1, 17], perm: [2, 0, 1], dtype: 'float32' },
    { shape: [4, 9, 130], perm: [1, 2, 0], dtype: 'int32' },
    { shape: [1, 1], perm: [1, 0], dtype: 'float32' },
    { shape: [6, 5, 4], perm: [0, 2, 1], dtype: 'float32' }, // not a rotation: the stock kernel
  ];
  for (const c of cases) {
    it(`matches tf.transpose on the cpu backend: ${c.shape.join('×')} ${c.dtype}, perm [${c.perm.join(', ')}]`, async () => {
      const size = tf.util.sizeFromShape(c.shape);
      const values = c.dtype === 'int32' ? Int32Array.from(randomValues(size, 7), (v) => Math.round(v * 1e6)) : randomValues(size, 7);
      await tf.setBackend('cpu');
      const expected = tf.tidy(() => tf.transpose(tf.tensor(values, c.shape, c.dtype), c.perm));
      const want = { shape: expected.shape, values: expected.dataSync().slice() };
      expected.dispose();
      await tf.setBackend('wasm');
      const backend = tf.backend() as unknown as Backend;
      const x = tf.tensor(values, c.shape, c.dtype);
      const before = backend.numDataIds();
      const out = transpose(backend, x, c.perm);
      expect(out.shape).toEqual(want.shape);
      expect(out.dtype).toBe(c.dtype);
      expect(Array.from(backend.readSync(out.dataId))).toEqual(Array.from(want.values));
      backend.disposeData(out.dataId);
      expect(backend.numDataIds()).toBe(before);
      x.dispose();
    });
  }

  it('copies float bits exactly (NaN payloads, −0, infinities, subnormals)', async () => {
    await tf.setBackend('wasm');
    const backend = tf.backend() as unknown as Backend;
    const bits = Uint32Array.of(0x7fc00001, 0x80000000, 0x7f800000, 0xff800000, 0x00000001, 0x3f800000);
    const x = tf.tensor(new Float32Array(bits.buffer), [2, 3]);
    const out = transpose(backend, x, [1, 0]);
    const read = backend.readSync(out.dataId) as Float32Array;
    const got = new Uint32Array(read.buffer, read.byteOffset, read.length);
    // [[a, b, c], [d, e, f]] → [[a, d], [b, e], [c, f]]
    expect(Array.from(got)).toEqual([bits[0], bits[3], bits[1], bits[4], bits[2], bits[5]]);
    backend.disposeData(out.dataId);
    x.dispose();
  });
});
