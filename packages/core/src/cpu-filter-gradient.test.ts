import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCpuTraining } from './cpu-filter-gradient';
import './register-gradients';

let stock: tf.KernelConfig;

beforeAll(async () => {
  await tf.setBackend('cpu');
  stock = tf.getKernel(tf.Conv2DBackpropFilter, 'cpu')!;
});

afterAll(() => {
  tf.unregisterKernel(tf.Conv2DBackpropFilter, 'cpu');
  tf.registerKernel(stock);
});

type Pad = 'valid' | 'same' | [[number, number], [number, number], [number, number], [number, number]];
const cases: ReadonlyArray<{ kernel: [number, number]; stride: number; pad: Pad; shape?: [number, number, number, number] }> = [
  { kernel: [3, 3], stride: 1, pad: 'valid' },
  { kernel: [3, 3], stride: 2, pad: 'valid' },
  { kernel: [3, 3], stride: 2, pad: 'same' }, // asymmetric padding at stride 2
  {
    kernel: [3, 3],
    stride: 1,
    pad: [
      [0, 0],
      [1, 1],
      [1, 1],
      [0, 0],
    ],
  },
  { kernel: [1, 7], stride: 1, pad: 'same' },
  { kernel: [1, 1], stride: 2, pad: 'valid' },
  {
    kernel: [7, 7],
    stride: 2,
    pad: [
      [0, 0],
      [3, 3],
      [3, 3],
      [0, 0],
    ],
  },
  { kernel: [3, 3], stride: 1, pad: 'same', shape: [1, 5, 7, 2] }, // batch 1, odd sizes
];

/** The filter gradient of `sum(conv2d(x, w) · r)` with whichever Conv2DBackpropFilter kernel is registered. */
function filterGradient(x: tf.Tensor4D, w: tf.Tensor4D, r: tf.Tensor, stride: number, pad: Pad): tf.Tensor {
  return tf.grad((b: tf.Tensor) => tf.sum(tf.mul(tf.conv2d(x, b as tf.Tensor4D, stride, pad), r)))(w);
}

describe('useCpuTraining: Conv2DBackpropFilter as a swapped-role convolution', () => {
  for (const c of cases) {
    it(`equals the stock kernel: kernel ${c.kernel.join('×')}, stride ${c.stride}, pad ${JSON.stringify(c.pad)}`, () => {
      const shape = c.shape ?? [2, 9, 10, 3];
      const x = tf.randomNormal(shape, 0, 1, 'float32', 4) as tf.Tensor4D;
      const w = tf.randomNormal([...c.kernel, shape[3], 5], 0, 1, 'float32', 5) as tf.Tensor4D;
      const r = tf.tidy(() => tf.randomNormal(tf.conv2d(x, w, c.stride, c.pad).shape, 0, 1, 'float32', 6));
      tf.unregisterKernel(tf.Conv2DBackpropFilter, 'cpu');
      tf.registerKernel(stock);
      const expected = filterGradient(x, w, r, c.stride, c.pad);
      useCpuTraining();
      expect(tf.getKernel(tf.Conv2DBackpropFilter, 'cpu')!.kernelFunc).not.toBe(stock.kernelFunc);
      const before = tf.memory().numTensors;
      const actual = filterGradient(x, w, r, c.stride, c.pad);
      expect(tf.memory().numTensors).toBe(before + 1); // only the gradient: intermediates disposed
      expect(actual.shape).toEqual(w.shape);
      const scale = tf.tidy(() => tf.max(tf.abs(expected)).dataSync()[0]!);
      const diff = tf.tidy(() => tf.max(tf.abs(tf.sub(expected, actual))).dataSync()[0]!);
      expect(diff / scale).toBeLessThan(1e-5);
      tf.dispose([x, w, r, expected, actual]);
    });
  }

  it('is idempotent', () => {
    useCpuTraining();
    const registered = tf.getKernel(tf.Conv2DBackpropFilter, 'cpu')!.kernelFunc;
    useCpuTraining();
    expect(tf.getKernel(tf.Conv2DBackpropFilter, 'cpu')!.kernelFunc).toBe(registered);
  });
});
