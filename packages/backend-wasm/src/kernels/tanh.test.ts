import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, onBackend, randomValues, runOwnKernel, setupWasm } from '../test-utils/backends';
import { tanhConfig, tanhSaturatesAt } from './tanh';

/** Largest per-element relative error |a − e| / |e| (e ≠ 0; absolute where e = 0). */
function worstRelative(actual: Float32Array, expected: Float32Array): number {
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i] as number;
    const d = Math.abs((actual[i] as number) - e);
    worst = Math.max(worst, e === 0 ? d : d / Math.abs(e));
  }
  return worst;
}

describe('Tanh', () => {
  beforeAll(setupWasm);

  it('known answers, small to saturated', async () => {
    // Expected: tanh to 9 digits (Wolfram Alpha / Math.tanh); tanh(±20) is ±1 in float32.
    const xs = Float32Array.of(0, 0.1, -0.2, 0.5, -1, 3, 20, -20);
    const expected = [0, 0.0996679946, -0.19737532, 0.462117157, -0.761594156, 0.995054754, 1, -1];
    const got = await runOwnKernel(tanhConfig, { x: { shape: [8], values: xs } }, {});
    expect(got.shape).toEqual([8]);
    for (let i = 0; i < 8; i++) expect(got.values[i]).toBeCloseTo(expected[i] as number, 6);
  });

  it('matches the cpu backend within 1e-6 per element over magnitudes 1e-6 … 30 (odd shape)', async () => {
    const size = 3 * 5 * 7 * 11;
    const u = randomValues(size, 90);
    const e = randomValues(size, 91);
    // |x| = 10^(−6 … 1.5), both signs, plus values at the saturation threshold, zeros and a denormal-range value.
    const values = u.map((s, i) => Math.sign(s || 1) * 10 ** (-6 + 3.75 * ((e[i] as number) + 1)));
    values.set([tanhSaturatesAt, -tanhSaturatesAt, Math.fround(tanhSaturatesAt * 1.000001), 0, -0, 1e-30], 0);
    const x = { shape: [3, 5, 7, 11], values };
    const expected = await onBackend('cpu', () => tf.tanh(tf.tensor(values, x.shape)));
    const got = await runOwnKernel(tanhConfig, { x }, {});
    expectClose(got, expected);
    expect(worstRelative(got.values, expected.values)).toBeLessThan(1e-6);
  });

  it('keeps NaN and maps ±Infinity to ±1', async () => {
    const got = await runOwnKernel(tanhConfig, { x: { shape: [3], values: Float32Array.of(Number.NaN, Infinity, -Infinity) } }, {});
    expect(Number.isNaN(got.values[0])).toBe(true);
    expect(Array.from(got.values.slice(1))).toEqual([1, -1]);
  });

  it('gives the cpu gradient through tf.tanh, leaking no tensor', async () => {
    const values = randomValues(4 * 9, 92).map((v) => 3 * v);
    const run = () => tf.grad((t: tf.Tensor) => tf.sum(tf.mul(tf.tanh(t), tf.tanh(tf.mul(t, 0.3)))))(tf.tensor2d(values, [4, 9]));
    expectClose(await onBackend('wasm', run), await onBackend('cpu', run));
    await tf.setBackend('wasm');
    const before = tf.memory().numTensors;
    tf.dispose(tf.tidy(run));
    expect(tf.memory().numTensors).toBe(before);
  });

  it('handles empty tensors and leaves int32 to the stock kernel', async () => {
    const empty = await runOwnKernel(tanhConfig, { x: { shape: [0, 3], values: new Float32Array(0) } }, {});
    expect(empty.shape).toEqual([0, 3]);
    await tf.setBackend('wasm');
    const int = tf.tensor1d([1, -2], 'int32');
    const args = { inputs: { x: int }, backend: tf.backend() as never, attrs: {} };
    expect(() => tanhConfig.kernelFunc(args, undefined)).toThrow(/Tanh does not support dtype int32/);
    int.dispose();
  });
});
