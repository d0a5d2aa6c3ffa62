import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { CIFAR_MEAN_STD } from './dataset';
import { imageDataset } from './image-dataset';
import { tabularDataset } from './tabular-dataset';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const base = {
  name: 'tiny',
  source: 'real' as const,
  description: 'two 1×2 RGB images',
  pixels: Uint8Array.of(0, 51, 255, 102, 0, 0, /* image 1 */ 255, 255, 255, 0, 0, 0),
  labels: Int32Array.of(1, 0),
  numClasses: 2,
  height: 1,
  width: 2,
  channels: 3,
};

describe('imageDataset', () => {
  it('gathers float32 NHWC batches normalised to [0, 1]', () => {
    const data = imageDataset(base);
    const x = data.gather([1, 0]);
    expect(x.shape).toEqual([2, 1, 2, 3]);
    expect(x.dtype).toBe('float32');
    // image 1 first: 255/255 = 1 ×3, then 0; image 0: 0, 51/255 = 0.2, 1, 102/255 = 0.4, 0, 0.
    const v = Array.from(x.dataSync());
    expect(v.slice(0, 6)).toEqual([1, 1, 1, 0, 0, 0]);
    expect(v.slice(6)).toEqual([0, expect.closeTo(0.2, 6), 1, expect.closeTo(0.4, 6), 0, 0]);
    x.dispose();
  });

  it('applies mean/std per channel and raw bytes without copying pixels', () => {
    const data = imageDataset(base).withNormalization(CIFAR_MEAN_STD);
    expect(data.pixels).toBe(base.pixels);
    const x = data.gather([0]);
    // (0/255 − 0.4914)/0.2023 = −2.42907…; (51/255 − 0.4822)/0.1994 = −1.41524…
    expect(x.dataSync()[0]).toBeCloseTo(-2.429066, 5);
    expect(x.dataSync()[1]).toBeCloseTo(-1.415246, 5);
    x.dispose();
    const raw = imageDataset({ ...base, normalization: 'raw' }).gather([0]);
    expect(Array.from(raw.dataSync())).toEqual([0, 51, 255, 102, 0, 0]);
    raw.dispose();
  });

  it('leaks no tensor and validates sizes, labels and indices', () => {
    const data = imageDataset(base);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) data.gather([0, 1]).dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(() => imageDataset({ ...base, pixels: new Uint8Array(11) })).toThrow(/must hold 2 images of 6 bytes \(12\), got 11 bytes/);
    expect(() => imageDataset({ ...base, labels: Int32Array.of(1, 2) })).toThrow(/label 1 must be in \[0, 1\], got 2/);
    expect(() => data.gather([2])).toThrow(/tiny\.gather: indices\[0\] must be an integer in \[0, 1\], got 2/);
    expect(() => imageDataset({ ...base, normalization: { mean: [0.5], std: [1] } })).toThrow(/3 means and 3 positive stds/);
  });
});

describe('tabularDataset', () => {
  it('gathers [k, F] float32 rows, rejects non-binary features, leaks nothing', () => {
    const data = tabularDataset({
      name: 't',
      source: 'stand-in',
      description: 'd',
      features: Uint8Array.of(1, 0, 0, 1, 1, 1),
      numFeatures: 3,
      labels: Int32Array.of(0, 4),
      numClasses: 5,
    });
    const before = tf.memory().numTensors;
    const x = data.gather([1, 0, 1]);
    expect(x.shape).toEqual([3, 3]);
    expect(Array.from(x.dataSync())).toEqual([1, 1, 1, 1, 0, 0, 1, 1, 1]);
    x.dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(() =>
      tabularDataset({ name: 't', source: 'real', description: 'd', features: Uint8Array.of(1, 2), numFeatures: 2, labels: Int32Array.of(0), numClasses: 1 }),
    ).toThrow(/features must be 0 or 1, got 2 at row 0, column 1/);
  });
});
