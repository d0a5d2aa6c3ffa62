import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { unfold } from './unfold';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('unfold (im2col)', () => {
  // The definition: a convolution with the one-hot kernel [kh, kw, cin, kh·kw·cin] copies input
  // patch element (p, q, c) to output channel (p·kw + q)·cin + c, with tfjs' own padding rules.
  type Pad = 'same' | 'valid' | number | [[number, number], [number, number], [number, number], [number, number]];
  const oneHotUnfold = (x: tf.Tensor4D, kh: number, kw: number, strides: [number, number], pad: Pad, dilations: [number, number]) =>
    tf.tidy(() => {
      const k = kh * kw * x.shape[3];
      const eye = tf.reshape(tf.oneHot(tf.range(0, k, 1, 'int32'), k, 1, 0, 'float32'), [kh, kw, x.shape[3], k]) as tf.Tensor4D;
      const patches = tf.conv2d(x, eye, strides, pad as 'same', 'NHWC', dilations);
      return tf.reshape(patches, [x.shape[0], patches.shape[1]! * patches.shape[2]!, k]);
    });

  it.each([
    { h: 6, w: 6, kh: 3, kw: 3, strides: [1, 1], pad: 'same', dilations: [1, 1] },
    { h: 7, w: 5, kh: 3, kw: 3, strides: [2, 2], pad: 'same', dilations: [1, 1] },
    { h: 8, w: 8, kh: 2, kw: 2, strides: [2, 2], pad: 'same', dilations: [1, 1] },
    { h: 7, w: 6, kh: 3, kw: 2, strides: [2, 1], pad: 'valid', dilations: [1, 1] },
    { h: 9, w: 9, kh: 3, kw: 3, strides: [1, 1], pad: 'same', dilations: [2, 2] },
    { h: 9, w: 8, kh: 3, kw: 3, strides: [1, 1], pad: 'valid', dilations: [2, 1] },
    { h: 5, w: 5, kh: 1, kw: 1, strides: [2, 2], pad: 'valid', dilations: [1, 1] },
    // PyTorch-style symmetric padding (what @mia/models uses): a number, or explicit amounts.
    { h: 8, w: 8, kh: 3, kw: 3, strides: [2, 2], pad: 1, dilations: [1, 1] },
    { h: 7, w: 6, kh: 3, kw: 3, strides: [1, 1], pad: 1, dilations: [1, 1] },
    {
      h: 8,
      w: 7,
      kh: 3,
      kw: 2,
      strides: [2, 1],
      pad: [
        [0, 0],
        [1, 2],
        [0, 1],
        [0, 0],
      ],
      dilations: [1, 1],
    },
    { h: 9, w: 9, kh: 7, kw: 7, strides: [2, 2], pad: 3, dilations: [1, 1] },
  ] as const)(
    'equals the one-hot convolution: $h×$w, kernel $kh×$kw, strides $strides, $pad, dilations $dilations',
    ({ h, w, kh, kw, strides, pad, dilations }) => {
      const x = tf.randomNormal([2, h, w, 3], 0, 1, 'float32', 1) as tf.Tensor4D;
      const want = oneHotUnfold(x, kh, kw, [...strides], (typeof pad === 'object' ? pad.map((p) => [...p]) : pad) as Pad, [...dilations]);
      const before = tf.memory().numTensors;
      const got = unfold(x, [kh, kw, 3, 4], { strides, pad: pad as Pad, dilations });
      expect(tf.memory().numTensors).toBe(before + 1);
      expect(got.shape).toEqual(want.shape);
      expect(Array.from(got.dataSync())).toEqual(Array.from(want.dataSync()));
      tf.dispose([x, want, got]);
    },
  );
});
