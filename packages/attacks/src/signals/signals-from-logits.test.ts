import * as tf from '@tensorflow/tfjs-core';
import { MiaError, ShapeMismatchError, crossEntropyPerExample } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useCpu } from '../test-utils/setup';
import { signalsFromLogits } from './signals-from-logits';
import { signalsFromLosses, signalsFromProbabilities } from './signals-from-losses';

beforeAll(useCpu);

describe('signalsFromLogits', () => {
  // Hand calculation: z = [0, ln 2, 0] gives p = [1/4, 1/2, 1/4].
  const z = [0, Math.LN2, 0];
  const s = signalsFromLogits([...z, ...z], [1, 0], 3);

  it('matches hand-computed values for y = 1 (p_y = 1/2)', () => {
    expect(s.loss[0]).toBeCloseTo(Math.LN2, 12); // −ln ½
    expect(s.trueProbability[0]).toBeCloseTo(0.5, 12);
    expect(s.maxProbability![0]).toBeCloseTo(0.5, 12);
    expect(s.entropy![0]).toBeCloseTo(1.5 * Math.LN2, 12); // −(2·¼ln¼ + ½ln½)
    expect(s.modifiedEntropy![0]).toBeCloseTo(0.5 * Math.log(8 / 3), 12); // −½ln½ − 2·¼ln¾
    expect(s.phi[0]).toBeCloseTo(0, 12); // ln2 − logsumexp(0, 0)
    expect(s.correct![0]).toBe(1);
  });

  it('matches hand-computed values for y = 0 (p_y = 1/4)', () => {
    expect(s.loss[1]).toBeCloseTo(Math.log(4), 12);
    expect(s.phi[1]).toBeCloseTo(-Math.log(3), 12); // 0 − ln(2 + 1)
    expect(s.modifiedEntropy![1]).toBeCloseTo(-0.75 * Math.log(0.25) - 0.5 * Math.log(0.5) - 0.25 * Math.log(0.75), 12);
    expect(s.correct![1]).toBe(0);
  });

  it('agrees with the tf cross-entropy and stays finite for huge logits', () => {
    const logits = [3.1, -2, 0.5, 1000, 0, -1000, -7, 2, 2];
    const labels = [0, 2, 1];
    const ours = signalsFromLogits(logits, labels, 3);
    const ref = tf.tidy(() => crossEntropyPerExample(tf.tensor2d(logits, [3, 3]), tf.tensor1d(labels, 'int32')).dataSync());
    expect(ours.loss[0]).toBeCloseTo(ref[0]!, 5);
    expect(ours.loss[1]).toBeCloseTo(2000, 6);
    expect(ours.phi[1]).toBeCloseTo(-2000, 6);
    expect(ours.phi[2]).toBeCloseTo(2 - Math.log(Math.exp(-7) + Math.exp(2)), 10);
    expect(ours.correct![2]).toBe(1); // first maximiser (class 1) equals the label
    expect(ours.modifiedEntropy!.every(Number.isFinite)).toBe(true);
  });

  it('rejects bad input with clear MiaErrors', () => {
    expect(() => signalsFromLogits([1, 2, 3], [0], 2)).toThrow(ShapeMismatchError);
    expect(() => signalsFromLogits([1, NaN], [0], 2)).toThrow(/logits\[1\] must be a finite number/);
    expect(() => signalsFromLogits([1, 2], [2], 2)).toThrow(/labels\[0\] must be an integer in \[0, 1\]/);
    expect(() => signalsFromLogits([1, 2], [0, 1], 2)).toThrow(ShapeMismatchError);
    expect(() => signalsFromLogits([], [], 2)).toThrow(/must not be empty/);
    expect(() => signalsFromLogits([1], [0], 1)).toThrow(/numClasses must be at least 2/);
    try {
      signalsFromLogits([1, NaN], [0], 2);
    } catch (error) {
      expect(MiaError.isInstance(error)).toBe(true);
    }
  });
});

describe('signalsFromLosses / signalsFromProbabilities', () => {
  it('derives p_y and φ from the loss (φ = −log expm1 ℓ)', () => {
    const s = signalsFromLosses([Math.LN2, Math.log(4)], [0, 1], 3);
    expect(s.trueProbability[0]).toBeCloseTo(0.5, 12);
    expect(s.phi[0]).toBeCloseTo(0, 12); // log(½/½)
    expect(s.phi[1]).toBeCloseTo(-Math.log(3), 12); // log(¼/¾), same as from logits above
    expect(() => signalsFromLosses([-1], [0], 2)).toThrow(/must be ≥ 0/);
  });

  it('recovers the logit-based signals from probabilities', () => {
    const s = signalsFromProbabilities([0.25, 0.5, 0.25], [1], 3);
    expect(s.loss[0]).toBeCloseTo(Math.LN2, 10);
    expect(s.entropy![0]).toBeCloseTo(1.5 * Math.LN2, 10);
    expect(() => signalsFromProbabilities([0.5, 0.6], [0], 2)).toThrow(/must sum to 1/);
  });
});

describe('splitSignals', () => {
  it('splits by membership and rejects bad membership arrays', async () => {
    const { splitSignals } = await import('./split-signals');
    const s = signalsFromLosses([0.1, 0.2, 0.3], [0, 1, 0], 2);
    const split = splitSignals(s, [true, false, 1]);
    expect([...split.members.loss]).toEqual([0.1, 0.3]);
    expect([...split.nonMembers.labels]).toEqual([1]);
    expect(() => splitSignals(s, [1, 0])).toThrow(ShapeMismatchError);
    expect(() => splitSignals(s, [1, 1, 1])).toThrow(/both members and non-members/);
    expect(() => splitSignals(s, [1, 2, 0])).toThrow(/isMember\[1\] must be a boolean or 0\/1/);
  });
});
