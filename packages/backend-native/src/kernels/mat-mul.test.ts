import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, it } from 'vitest';
import { expectFallbackThrows, expectMatchesCpu, randomTensor, setupNative } from '../test-utils/backends';
import { describeNative } from '../test-utils/native-available';

interface MatMulCase {
  name: string;
  /** Shapes before transposition: a is [..., m, k], b is [..., k, n]. */
  a: number[];
  b: number[];
}

const swapLast = (s: number[]): number[] => [...s.slice(0, -2), s[s.length - 1]!, s[s.length - 2]!];

const cases: MatMulCase[] = [
  { name: 'rank 2, odd sizes', a: [5, 7], b: [7, 3] },
  { name: 'rank 2, one row (batch 1 of a dense layer)', a: [1, 9], b: [9, 4] },
  { name: 'rank 3, batch 3', a: [3, 5, 7], b: [3, 7, 4] },
  { name: 'rank 4, batch 2×3', a: [2, 3, 4, 5], b: [2, 3, 5, 6] },
  { name: 'rank 3 with batch 1 on a, broadcast over b', a: [1, 5, 7], b: [3, 7, 4] },
  { name: 'rank 3 · rank 2 (b broadcast)', a: [3, 5, 7], b: [7, 4] },
  { name: 'rank 2 · rank 4 (a broadcast)', a: [5, 7], b: [2, 3, 7, 4] },
  { name: 'rank 4 with batch [1, 1] on b', a: [2, 3, 4, 5], b: [1, 1, 5, 6] },
  { name: 'rank 4 batch [1, 1] on a · rank 3 (output rank 4)', a: [1, 1, 5, 7], b: [3, 7, 4] },
  // Large enough that a·bᵀ takes oneDNN's fp32 matmul primitive instead of dnnl_sgemm (k ≥ 64, m·n·k ≥ 2¹⁸).
  { name: 'rank 2, wide (a·bᵀ through the matmul primitive)', a: [64, 80], b: [80, 96] },
  { name: 'rank 3, batch 2, wide', a: [2, 64, 80], b: [2, 80, 70] },
  { name: 'rank 3 · rank 2, wide (b broadcast)', a: [2, 64, 80], b: [80, 70] },
];

describeNative('native matrix products vs the cpu backend', () => {
  beforeAll(setupNative);

  for (const [i, c] of cases.entries()) {
    for (const ta of [false, true]) {
      for (const tb of [false, true]) {
        it(`BatchMatMul ${c.name}, transposeA ${ta}, transposeB ${tb}`, async () => {
          expect.hasAssertions();
          const aShape = ta ? swapLast(c.a) : c.a;
          const bShape = tb ? swapLast(c.b) : c.b;
          await expectMatchesCpu(() => tf.matMul(randomTensor(aShape, 10 * i), randomTensor(bShape, 10 * i + 1), ta, tb), { native: ['BatchMatMul'] });
        });
      }
    }
  }

  it('BatchMatMul: a wide a·bᵀ gives the same bits on every call', () => {
    const a = randomTensor([128, 300], 120);
    const b = randomTensor([200, 300], 121);
    const first = tf.matMul(a, b, false, true);
    const again = tf.matMul(a, b, false, true);
    expect(Buffer.from(again.dataSync().buffer).equals(Buffer.from(first.dataSync().buffer))).toBe(true);
    tf.dispose([a, b, first, again]);
  });

  it('BatchMatMul gradients (through tf.grads) on a batched product', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(
      () =>
        tf.grads((a: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(tf.matMul(a, b, false, true), randomTensor([3, 5, 4], 102))))([
          randomTensor([3, 5, 7], 100),
          randomTensor([3, 4, 7], 101),
        ]),
      { native: ['BatchMatMul'] },
    );
  });

  it('BatchMatMul: batches that broadcast both ways ([3,1] with [1,2]) fall back and are right', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(() => tf.matMul(randomTensor([3, 1, 4, 5], 110), randomTensor([1, 2, 5, 6], 111)), { fallback: { BatchMatMul: /batch shapes/ } });
  });

  it('BatchMatMul: int32 goes to the wasm kernel (which rejects it as without native kernels)', async () => {
    expect.hasAssertions();
    await expectFallbackThrows(
      () => tf.matMul(tf.tensor2d([1, 2, 3, 4, 5, 6], [2, 3], 'int32'), tf.tensor2d([1, -1, 2, 0, 3, 1], [3, 2], 'int32')),
      'BatchMatMul',
      /not float32/,
      /non-float32/,
    );
  });

  const fused =
    (activation: tf.fused.Activation, bias: (() => tf.Tensor) | undefined, ta = false, tb = false, alpha?: number) =>
    (): tf.Tensor =>
      tf.fused.matMul({
        a: randomTensor(ta ? [9, 6] : [6, 9], 120),
        b: randomTensor(tb ? [5, 9] : [9, 5], 121),
        transposeA: ta,
        transposeB: tb,
        bias: bias?.(),
        activation,
        leakyreluAlpha: alpha,
      });

  for (const activation of ['linear', 'relu', 'relu6', 'elu', 'sigmoid', 'leakyrelu'] as const) {
    it(`_FusedMatMul: bias + ${activation}`, async () => {
      expect.hasAssertions();
      await expectMatchesCpu(
        fused(activation, () => randomTensor([5], 122)),
        { native: ['_FusedMatMul'] },
      );
    });
  }

  it('_FusedMatMul: no bias + relu, transposed operands, leakyrelu alpha 0.3, bias [1, n]', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(fused('relu', undefined), { native: ['_FusedMatMul'] });
    await expectMatchesCpu(
      fused('relu', () => randomTensor([5], 123), true, true),
      { native: ['_FusedMatMul'] },
    );
    await expectMatchesCpu(
      fused('leakyrelu', () => randomTensor([5], 124), false, true, 0.3),
      { native: ['_FusedMatMul'] },
    );
    await expectMatchesCpu(
      fused('linear', () => randomTensor([1, 5], 125), true, false),
      { native: ['_FusedMatMul'] },
    );
  });

  it('_FusedMatMul: batched with a broadcast b and bias', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(
      () => tf.fused.matMul({ a: randomTensor([3, 4, 6], 130), b: randomTensor([6, 5], 131), bias: randomTensor([5], 132), activation: 'relu' }),
      { native: ['_FusedMatMul'] },
    );
  });

  // Under a gradient tape tfjs fuses only linear activations (relu is applied as its own op).
  it('_FusedMatMul: gradients of a dense layer (bias, linear) through tf.grads', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(
      () =>
        tf.grads((a: tf.Tensor, b: tf.Tensor, bias: tf.Tensor) =>
          tf.sum(tf.mul(tf.fused.matMul({ a: a as tf.Tensor2D, b: b as tf.Tensor2D, bias }), randomTensor([6, 5], 143))),
        )([randomTensor([6, 9], 140), randomTensor([9, 5], 141), randomTensor([5], 142)]),
      { native: ['_FusedMatMul'] },
    );
  });

  it('_FusedMatMul: prelu falls back and is right', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(
      () =>
        tf.fused.matMul({
          a: randomTensor([6, 9], 150),
          b: randomTensor([9, 5], 151),
          bias: randomTensor([5], 152),
          activation: 'prelu',
          preluActivationWeights: randomTensor([5], 153),
        }),
      { fallback: { _FusedMatMul: /activation prelu/ } },
    );
  });

  it('_FusedMatMul: a bias over rows goes to the wasm kernel (which rejects it as without native kernels)', async () => {
    expect.hasAssertions();
    await expectFallbackThrows(
      () => tf.fused.matMul({ a: randomTensor([6, 9], 154), b: randomTensor([9, 5], 155), bias: randomTensor([6, 1], 156) }),
      '_FusedMatMul',
      /bias shape \[6,1\]/,
      /rank-1 bias/,
    );
  });
});
