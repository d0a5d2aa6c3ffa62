import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { concaveTerm } from './concave-term';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('concaveTerm (CCL Definition 4.1, checked on a grid)', () => {
  it('accepts decreasing concave functions and reports A = −f′(1)', () => {
    expect(concaveTerm((p) => tf.neg(tf.square(p))).slopeAtOne).toBeCloseTo(2, 5);
    expect(concaveTerm((p) => tf.log(tf.sub(2, p)), { name: 'log' }).slopeAtOne).toBeCloseTo(1, 5);
  });
  it('rejects an increasing function', () => {
    expect(() => concaveTerm((p) => tf.square(p))).toThrow(/must be strictly decreasing on \[0, 1\], got f\(0.0000\)/);
  });
  it('rejects a convex decreasing function', () => {
    expect(() => concaveTerm((p) => tf.square(tf.sub(1, p)), { name: 'convex' })).toThrow(/concaveTerm: f \(convex\) must be concave on \[0, 1\]/);
  });
  it('rejects a non-finite function', () => {
    expect(() => concaveTerm((p) => tf.neg(tf.log(p)))).toThrow(/must be finite on \[0, 1\], got Infinity at p = 0.0000/);
  });
  it('rejects non-elementwise functions and non-functions', () => {
    expect(() => concaveTerm((p) => tf.sum(p))).toThrow(InvalidArgumentError);
    expect(() => concaveTerm(3 as never)).toThrow(/f must be a function, got number/);
  });
  it('leaks no tensor', () => {
    const before = tf.memory().numTensors;
    concaveTerm((p) => tf.neg(tf.exp(p)));
    expect(() => concaveTerm((p) => tf.square(p))).toThrow();
    expect(tf.memory().numTensors).toBe(before);
  });
});
