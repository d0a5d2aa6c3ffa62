import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, it } from 'vitest';
import { expectMatchesCpu, randomTensor, setupNative } from '../test-utils/backends';
import { describeNative } from '../test-utils/native-available';

type BinaryOp = (a: tf.Tensor, b: tf.Tensor) => tf.Tensor;
const binaryOps: [string, BinaryOp][] = [
  ['Add', tf.add],
  ['Sub', tf.sub],
  ['Multiply', tf.mul],
  ['RealDiv', tf.div],
  ['SquaredDifference', tf.squaredDifference],
  ['Maximum', tf.maximum],
  ['Minimum', tf.minimum],
];

const broadcasts: [string, number[], number[]][] = [
  ['same shape', [3, 4, 5], [3, 4, 5]],
  ['scalar on the left', [], [3, 4]],
  ['scalar on the right', [3, 4], []],
  ['[N,H,W,C] + [C]', [2, 3, 4, 5], [5]],
  ['[C] + [N,H,W,C]', [5], [2, 3, 4, 5]],
  ['[N,1] + [N,C]', [4, 1], [4, 6]],
  ['[2,1,3] + [1,4,1]', [2, 1, 3], [1, 4, 1]],
  ['rank 5 both ways', [2, 3, 1, 4, 2], [3, 5, 1, 1]],
  ['size-1 axes in the middle', [3, 1, 1, 4], [3, 2, 5, 4]],
  ['same shape, large enough for threads', [40, 1000], [40, 1000]],
  ['[N,H,W,C] + [C], large enough for threads', [8, 16, 16, 17], [17]],
  ['[N,1] + [N,C], large enough for threads', [600, 1], [600, 70]],
];

// NaN, ±Inf, ±0 and ordinary values, paired so that every combination of kinds occurs.
const specials = [NaN, Infinity, -Infinity, 0, -0, 1.5, -2, 1e-30];
const left = Float32Array.from(specials.flatMap((a) => specials.map(() => a)));
const right = Float32Array.from(specials.flatMap(() => specials));

describeNative('native element-wise kernels vs the cpu backend', () => {
  beforeAll(setupNative);

  for (const [name, op] of binaryOps) {
    for (const [i, [pattern, aShape, bShape]] of broadcasts.entries()) {
      it(`${name}: ${pattern}`, async () => {
        expect.hasAssertions();
        // b away from 0 for the division (the quotient's scale stays meaningful).
        const b = (): tf.Tensor =>
          name === 'RealDiv' ? tf.add(randomTensor(bShape, 2 * i + 1), tf.sign(randomTensor(bShape, 2 * i + 1))) : randomTensor(bShape, 2 * i + 1);
        await expectMatchesCpu(() => op(randomTensor(aShape, 2 * i), b()), { native: [name] });
      });
    }

    it(`${name}: NaN, ±Inf and ±0 on either side`, async () => {
      expect.hasAssertions();
      await expectMatchesCpu(() => op(tf.tensor1d(left), tf.tensor1d(right)), { native: [name] });
      await expectMatchesCpu(() => op(tf.tensor2d(left, [8, 8]), tf.tensor1d(right.slice(0, 8))), { native: [name] });
    });

    // tf.div of int32 tensors runs FloorDiv, not RealDiv.
    if (name !== 'RealDiv') {
      it(`${name}: int32 falls back and is right`, async () => {
        expect.hasAssertions();
        await expectMatchesCpu(() => op(tf.tensor2d([1, -2, 3, 4, 5, -6], [2, 3], 'int32'), tf.tensor1d([3, 1, -2], 'int32')), {
          fallback: { [name]: /not float32/ },
        });
      });
    }
  }

  const unaryOps: [string, (x: tf.Tensor) => tf.Tensor][] = [
    ['Relu', tf.relu],
    ['Relu6', tf.relu6],
    ['Step', (x) => tf.step(x)],
    ['Tanh', tf.tanh],
    ['Sigmoid', tf.sigmoid],
    ['Neg', tf.neg],
    ['Square', tf.square],
    ['Sqrt', tf.sqrt],
    ['Rsqrt', tf.rsqrt],
    ['Exp', tf.exp],
    ['Log', tf.log],
    ['Abs', tf.abs],
    ['Elu', tf.elu],
    ['LeakyRelu', (x) => tf.leakyRelu(x)],
  ];
  const unarySpecials = tf.util.flatten([NaN, Infinity, -Infinity, 0, -0, 1e-30, -1e-30, 0.5, -0.5, 7, -7, 20, -20, 100, -100]) as number[];

  for (const [i, [name, op]] of unaryOps.entries()) {
    it(`${name}: random values (small and large enough for threads), NaN, ±Inf, ±0`, async () => {
      expect.hasAssertions();
      const scaled = (shape: number[], seed: number) => (): tf.Tensor => op(tf.mul(randomTensor(shape, seed), 4));
      await expectMatchesCpu(scaled([3, 5, 7], 30 + i), { native: [name] });
      await expectMatchesCpu(scaled([41, 1000], 60 + i), { native: [name] });
      await expectMatchesCpu(() => op(tf.tensor1d(unarySpecials)), { native: [name] });
    });
  }

  it('Step and LeakyRelu: their alpha attribute', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(() => tf.step(tf.tensor1d(unarySpecials), 0.25), { native: ['Step'] });
    await expectMatchesCpu(() => tf.leakyRelu(tf.tensor1d(unarySpecials), 0.05), { native: ['LeakyRelu'] });
  });

  it('Abs, Neg and Square: int32 falls back and is right', async () => {
    expect.hasAssertions();
    const ints = () => tf.tensor1d([3, -1, 0, -7, 12], 'int32');
    await expectMatchesCpu(() => tf.abs(ints()), { fallback: { Abs: /not float32/ } });
    await expectMatchesCpu(() => tf.neg(ints()), { fallback: { Neg: /not float32/ } });
    await expectMatchesCpu(() => tf.square(ints()), { fallback: { Square: /not float32/ } });
  });

  it('AddN: 2, 3 and 5 inputs, small and large enough for threads, with NaN', async () => {
    expect.hasAssertions();
    for (const [count, shape] of [
      [2, [3, 4]],
      [3, [2, 3, 4, 5]],
      [5, [40, 1000]],
    ] as const) {
      await expectMatchesCpu(() => tf.addN(Array.from({ length: count }, (_, k) => randomTensor([...shape], 90 + k))), { native: ['AddN'] });
    }
    await expectMatchesCpu(() => tf.addN([tf.tensor1d(left), tf.tensor1d(right), tf.ones([64])]), { native: ['AddN'] });
  });

  it('AddN: int32 falls back and is right', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(() => tf.addN([tf.tensor1d([1, 2, 3], 'int32'), tf.tensor1d([4, -5, 6], 'int32')]), { fallback: { AddN: /not float32/ } });
  });

  it('empty tensors fall back and give empty results', async () => {
    expect.hasAssertions();
    await expectMatchesCpu(() => tf.add(tf.zeros([0, 3]), tf.ones([3])), { fallback: { Add: /empty/ } });
    await expectMatchesCpu(() => tf.relu(tf.zeros([2, 0])), { fallback: { Relu: /empty/ } });
  });
});
