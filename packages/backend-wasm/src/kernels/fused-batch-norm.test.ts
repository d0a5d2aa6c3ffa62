import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, onBackend, randomValues, runOwnKernel, setupWasm } from '../test-utils/backends';
import { fusedBatchNormConfig } from './fused-batch-norm';

type Input = { shape: number[]; values: Float32Array };
const input = (shape: number[], seed: number, map: (v: number) => number = (v) => v): Input => ({
  shape,
  values: randomValues(tf.util.sizeFromShape(shape), seed).map(map),
});

/** tf.batchNorm on the cpu backend. */
function onCpu(x: Input, mean: Input, variance: Input, offset: Input | undefined, scale: Input | undefined, epsilon: number) {
  return onBackend('cpu', () =>
    tf.batchNorm(
      tf.tensor(x.values, x.shape),
      tf.tensor(mean.values, mean.shape),
      tf.tensor(variance.values, variance.shape),
      offset && tf.tensor(offset.values, offset.shape),
      scale && tf.tensor(scale.values, scale.shape),
      epsilon,
    ),
  );
}

describe('FusedBatchNorm (forward)', () => {
  beforeAll(setupWasm);

  it('known answer: y = (x − mean)·scale / √(variance + ε) + offset', async () => {
    const got = await runOwnKernel(
      fusedBatchNormConfig,
      {
        x: { shape: [2, 2], values: Float32Array.of(1, 2, 3, 4) },
        mean: { shape: [2], values: Float32Array.of(1, 1) },
        variance: { shape: [2], values: Float32Array.of(4, 0.25) },
        offset: { shape: [2], values: Float32Array.of(10, 0) },
        scale: { shape: [2], values: Float32Array.of(2, 1) },
      },
      { varianceEpsilon: 0 },
    );
    // Channel 0: (x − 1)·2/2 + 10 → 10, 12; channel 1: (x − 1)/0.5 → 2, 6.
    expect(Array.from(got.values)).toEqual([10, 2, 12, 6]);
  });

  for (const [i, c] of [
    { x: [3, 5, 7, 11], offset: true, scale: true },
    { x: [4, 6, 6, 3], offset: false, scale: true },
    { x: [9, 13], offset: true, scale: false },
    { x: [1, 1, 1, 5], offset: false, scale: false },
  ].entries()) {
    it(`matches tf.batchNorm on the cpu backend: x ${c.x.join('×')}, offset ${c.offset}, scale ${c.scale}`, async () => {
      const ch = c.x[c.x.length - 1]!;
      const x = input(c.x, 130 + i);
      const mean = input([ch], 140 + i);
      const variance = input([ch], 150 + i, (v) => Math.abs(v) + 0.05);
      const offset = c.offset ? input([ch], 160 + i) : undefined;
      const scale = c.scale ? input([ch], 170 + i) : undefined;
      const inputs: Record<string, Input> = { x, mean, variance };
      if (offset) inputs['offset'] = offset;
      if (scale) inputs['scale'] = scale;
      expectClose(await runOwnKernel(fusedBatchNormConfig, inputs, { varianceEpsilon: 1e-3 }), await onCpu(x, mean, variance, offset, scale, 1e-3));
    });
  }

  it('leaves non-vector statistics to the stock kernel (mean and variance of shape [1, 1, 1, C]) with the same result as cpu', async () => {
    const x = input([2, 3, 4, 5], 180);
    const mean = input([1, 1, 1, 5], 181);
    const variance = input([1, 1, 1, 5], 182, (v) => Math.abs(v) + 0.1);
    const run = () =>
      tf.batchNorm(tf.tensor(x.values, x.shape), tf.tensor(mean.values, mean.shape), tf.tensor(variance.values, variance.shape), undefined, undefined, 1e-3);
    expectClose(await onBackend('wasm', run), await onBackend('cpu', run));
    await expect(runOwnKernel(fusedBatchNormConfig, { x, mean, variance }, { varianceEpsilon: 1e-3 })).rejects.toThrow(
      /FusedBatchNorm does not support this case/,
    );
  });
});
