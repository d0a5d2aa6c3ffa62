import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { patchViews } from './patch-views';
import type { ResolvedConv2d } from './per-example-tape';
import { convGeometry } from './conv-geometry';
import { unfold } from '../test-utils/unfold';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

type Pad = ResolvedConv2d['pad'];
const cases: Array<{ h: number; w: number; kh: number; kw: number; strides: [number, number]; pad: Pad; dilations: [number, number] }> = [
  { h: 6, w: 6, kh: 3, kw: 3, strides: [1, 1], pad: 'same', dilations: [1, 1] },
  { h: 7, w: 5, kh: 3, kw: 2, strides: [1, 1], pad: 'valid', dilations: [1, 1] },
  { h: 8, w: 8, kh: 3, kw: 3, strides: [2, 2], pad: 1, dilations: [1, 1] },
  { h: 7, w: 6, kh: 3, kw: 3, strides: [2, 1], pad: 'valid', dilations: [1, 1] },
  { h: 8, w: 8, kh: 1, kw: 1, strides: [2, 2], pad: 'valid', dilations: [1, 1] },
  { h: 9, w: 9, kh: 7, kw: 7, strides: [2, 2], pad: 3, dilations: [1, 1] },
  { h: 9, w: 8, kh: 3, kw: 3, strides: [1, 1], pad: 'same', dilations: [2, 1] },
  {
    h: 8,
    w: 7,
    kh: 3,
    kw: 2,
    strides: [3, 2],
    pad: [
      [0, 0],
      [1, 2],
      [0, 1],
      [0, 0],
    ],
    dilations: [1, 1],
  },
];

describe('patchViews', () => {
  it.each(cases)(
    'gives the per-example AᵀG and ⟨AAᵀ, GGᵀ⟩ of the im2col patches: $h×$w, kernel $kh×$kw, strides $strides, pad $pad, dilations $dilations',
    ({ h, w, kh, kw, strides, pad, dilations }) => {
      const conv: ResolvedConv2d = { strides, pad, dilations };
      const { outH, outW } = convGeometry(h, w, kh, kw, conv);
      const x = tf.randomNormal([2, h, w, 3], 0, 1, 'float32', 1) as tf.Tensor4D;
      const g = tf.randomNormal([2, outH, outW, 4], 0, 1, 'float32', 2) as tf.Tensor4D;
      const before = tf.memory().numTensors;
      const { views, grads } = patchViews(x, g, [kh, kw, 3, 4], conv);
      expect(tf.memory().numTensors).toBe(before + views.length + 1);
      const [got, want] = tf.tidy(() => {
        const patches = unfold(x, [kh, kw, 3, 4], conv);
        const g3 = tf.reshape(g, [2, outH * outW, 4]) as tf.Tensor3D;
        const perExample = tf.concat(
          views.map((v) => tf.matMul(v, grads, true, false)),
          1,
        );
        const ghost = tf.sum(tf.mul(tf.addN(views.map((v) => tf.matMul(v, v, false, true))), tf.matMul(grads, grads, false, true)), [1, 2]);
        const wantGhost = tf.sum(tf.mul(tf.matMul(patches, patches, false, true), tf.matMul(g3, g3, false, true)), [1, 2]);
        return [tf.concat([tf.reshape(perExample, [-1]), ghost]), tf.concat([tf.reshape(tf.matMul(patches, g3, true, false), [-1]), wantGhost])];
      });
      const [a, b] = [got!.dataSync(), want!.dataSync()];
      expect(a.length).toBe(b.length);
      for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThan(1e-3 * Math.max(1, Math.abs(b[i]!)));
      tf.dispose([x, g, grads, got!, want!, ...views]);
    },
  );
});
