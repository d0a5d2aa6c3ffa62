import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectClose, onBackend, randomValues, runOwnKernel, setupWasm } from '../test-utils/backends';
import { conv2DBackpropInputConfig } from './conv2d-backprop-input';

// Cases: strides 1 and 2, same/valid padding, 1×1 and 3×3 filters, odd sizes, batch 1.
const cases = [
  { x: [1, 7, 7, 3], f: [3, 3, 3, 4], stride: 1, pad: 'same' },
  { x: [2, 7, 5, 3], f: [3, 3, 3, 5], stride: 2, pad: 'same' },
  { x: [2, 8, 8, 4], f: [3, 3, 4, 6], stride: 2, pad: 'same' },
  { x: [1, 9, 8, 2], f: [3, 3, 2, 3], stride: 2, pad: 'valid' },
  { x: [2, 6, 7, 3], f: [3, 2, 3, 2], stride: 1, pad: 'valid' },
  { x: [1, 7, 7, 5], f: [1, 1, 5, 4], stride: 2, pad: 'same' },
  { x: [2, 8, 6, 3], f: [1, 1, 3, 4], stride: 2, pad: 'valid' },
  { x: [1, 5, 5, 2], f: [1, 1, 2, 3], stride: 1, pad: 'same' },
  // PyTorch-style explicit padding 1 at stride 2 (top/left pad 1, unlike tfjs 'same').
  {
    x: [2, 8, 8, 3],
    f: [3, 3, 3, 4],
    stride: 2,
    pad: [
      [0, 0],
      [1, 1],
      [1, 1],
      [0, 0],
    ],
  },
  { x: [1, 10, 9, 2], f: [5, 4, 2, 3], stride: 3, pad: 'same' },
] as const satisfies readonly { x: readonly number[]; f: readonly number[]; stride: number; pad: unknown }[];

const padOf = (pad: unknown): 'same' | 'valid' | [[number, number], [number, number], [number, number], [number, number]] =>
  JSON.parse(JSON.stringify(pad)) as never;

describe('Conv2DBackpropInput', () => {
  beforeAll(setupWasm);
  // Each test asserts through expectClose (cpu vs wasm within 1e-4); fail any test that asserts nothing.
  beforeEach(() => {
    expect.hasAssertions();
  });

  for (const [i, c] of cases.entries()) {
    it(`matches the cpu backend: x ${c.x.join('×')}, filter ${c.f.join('×')}, stride ${c.stride}, ${JSON.stringify(c.pad)}`, async () => {
      const info = tf.backend_util.computeConv2DInfo(
        [...c.x] as [number, number, number, number],
        [...c.f] as [number, number, number, number],
        c.stride,
        1,
        padOf(c.pad),
      );
      const dyShape = [c.x[0], info.outHeight, info.outWidth, c.f[3]];
      const dy = { shape: dyShape, values: randomValues(tf.util.sizeFromShape(dyShape), 10 + i) };
      const filter = { shape: [...c.f], values: randomValues(tf.util.sizeFromShape([...c.f]), 20 + i) };
      const attrs = { inputShape: [...c.x], strides: [c.stride, c.stride], pad: padOf(c.pad), dataFormat: 'NHWC', dimRoundingMode: undefined };
      const expected = await onBackend(
        'cpu',
        () =>
          tf
            .engine()
            .runKernel(
              'Conv2DBackpropInput',
              { dy: tf.tensor(dy.values, dy.shape), filter: tf.tensor(filter.values, filter.shape) },
              attrs as never,
            ) as tf.Tensor,
      );
      expectClose(await runOwnKernel(conv2DBackpropInputConfig, { dy, filter }, attrs), expected);
      // The registered kernel (reached through tf ops) agrees as well.
      expectClose(
        await onBackend('wasm', () =>
          tf.conv2dTranspose(tf.tensor4d(dy.values, dyShape as never), tf.tensor4d(filter.values, [...c.f]), [...c.x], c.stride, padOf(c.pad) as never),
        ),
        expected,
      );
    });
  }
});
