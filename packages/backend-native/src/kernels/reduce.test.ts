import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectMatchesCpu, randomTensor, setupNative } from '../test-utils/backends';
import { describeNative } from '../test-utils/native-available';
import { reductionSplit } from './reduce';

describe('reductionSplit', () => {
  it('views x as [outer, mid, inner] around one contiguous group of reduced axes, ignoring size-1 axes', () => {
    expect.hasAssertions();
    expect(reductionSplit([2, 3, 4, 5], [0, 1, 2])).toEqual({ outer: 1, mid: 24, inner: 5 });
    expect(reductionSplit([2, 3, 4, 5], [3])).toEqual({ outer: 24, mid: 5, inner: 1 });
    expect(reductionSplit([2, 3, 4, 5], [1, 2])).toEqual({ outer: 2, mid: 12, inner: 5 });
    expect(reductionSplit([2, 1, 4, 1, 3], [2, 4])).toEqual({ outer: 2, mid: 12, inner: 1 });
    expect(reductionSplit([2, 1, 4, 1, 3], [0, 1, 2])).toEqual({ outer: 1, mid: 8, inner: 3 });
  });

  it('is undefined for non-contiguous axes and for axes that are all of size 1', () => {
    expect.hasAssertions();
    expect(reductionSplit([2, 3, 4], [0, 2])).toBeUndefined();
    expect(reductionSplit([2, 1, 4], [1])).toBeUndefined();
    expect(reductionSplit([2, 3], [])).toBeUndefined();
  });
});

type Reduce = (x: tf.Tensor, axis: number | number[] | undefined, keepDims: boolean) => tf.Tensor;
const reductions: [string, Reduce][] = [
  ['Sum', tf.sum],
  ['Mean', tf.mean],
  ['Max', tf.max],
  ['Min', tf.min],
];

const patterns: [string, number[], number | number[] | undefined][] = [
  ['every axis', [2, 3, 4, 5], undefined],
  ['axis 0', [2, 3, 4, 5], 0],
  ['axis 1', [2, 3, 4, 5], 1],
  ['axis 2', [2, 3, 4, 5], 2],
  ['last axis (-1)', [2, 3, 4, 5], -1],
  ['axes [0, 1]', [2, 3, 4, 5], [0, 1]],
  ['axes [1, 2]', [2, 3, 4, 5], [1, 2]],
  ['axes [2, 3]', [2, 3, 4, 5], [2, 3]],
  ['axes N, H, W (batch-norm statistics)', [2, 3, 4, 5], [0, 1, 2]],
  ['axes [2, 1] (unordered)', [2, 3, 4, 5], [2, 1]],
  ['rank 1', [7], 0],
  ['size-1 axes around the reduced ones', [2, 1, 4, 1, 3], [2, 4]],
  ['size-1 axes inside the reduced group', [2, 1, 4, 1, 3], [0, 1, 2]],
  ['N, H, W, large enough for threads', [16, 8, 8, 40], [0, 1, 2]],
  ['rows, large enough for threads', [40, 1000], 1],
  ['columns, large enough for threads', [1000, 40], 0],
];

describeNative('native reductions vs the cpu backend', () => {
  beforeAll(setupNative);

  for (const [name, reduce] of reductions) {
    for (const [i, [pattern, shape, axis]] of patterns.entries()) {
      for (const keepDims of [false, true]) {
        it(`${name}: ${pattern}${keepDims ? ', keepDims' : ''}`, async () => {
          expect.hasAssertions();
          await expectMatchesCpu(() => reduce(randomTensor(shape, 10 * i), axis, keepDims), { native: [name] });
        });
      }
    }

    it(`${name}: NaN and ±Inf (rows and columns)`, async () => {
      expect.hasAssertions();
      const x = (): tf.Tensor =>
        tf.tensor2d([NaN, 1, 2, 3, -Infinity, -Infinity, -Infinity, -Infinity, 5, NaN, Infinity, -1, Infinity, -Infinity, 0, 2], [4, 4]);
      await expectMatchesCpu(() => reduce(x(), 1, false), { native: [name] });
      await expectMatchesCpu(() => reduce(x(), 0, false), { native: [name] });
      // NaN in one thread's slice of a column reduction reaches the result.
      await expectMatchesCpu(() => reduce(tf.concat([randomTensor([900, 40], 70), tf.fill([1, 40], NaN), randomTensor([99, 40], 71)]), 0, false), {
        native: [name],
      });
    });

    it(`${name}: non-contiguous axes fall back and are right`, async () => {
      expect.hasAssertions();
      await expectMatchesCpu(() => reduce(randomTensor([2, 3, 4], 80), [0, 2], false), { fallback: { [name]: /not contiguous/ } });
      await expectMatchesCpu(() => reduce(randomTensor([2, 3, 4, 5], 81), [0, 3], true), { fallback: { [name]: /not contiguous/ } });
    });

    it(`${name}: only size-1 axes, and int32, fall back and are right`, async () => {
      expect.hasAssertions();
      await expectMatchesCpu(() => reduce(randomTensor([2, 1, 4], 82), 1, false), { fallback: { [name]: /./ } });
      await expectMatchesCpu(() => reduce(tf.tensor2d([3, -1, 4, 1, -5, 9], [2, 3], 'int32'), 1, false), { fallback: { [name]: /not float32/ } });
    });
  }
});
