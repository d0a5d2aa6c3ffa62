import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { crossEntropyPerExample, seededRandom, type PerExampleTape } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { epsilonOf } from '../accountant/epsilon-of';
import { noiseMultiplierFor } from '../accountant/noise-multiplier-for';
import { poissonSample } from '../dp-sgd/poisson-sample';
import { dpSgdTapedGradients } from '../ghost/dp-sgd-taped-gradients';
import { checkEmpiricalEpsilon } from './check-empirical-epsilon';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const range = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => i + offset);

describe('checkEmpiricalEpsilon', () => {
  it('flags a model whose proven ε exceeds the accountant’s, and only then', () => {
    // 100 members above 100 non-members: the bound is log(q/(1 − q)), q = 0.025^(1/100), = 3.2813…
    // (hand calculation; the same known answer as @mia/metrics' empiricalEpsilonLowerBound test).
    const scores = { memberScores: range(100, 1000), nonMemberScores: range(100) };
    const below = checkEmpiricalEpsilon(scores, { accountantEpsilon: 3, delta: 0 });
    expect(below.broken).toBe(true);
    expect(below.empiricalEpsilon).toBeCloseTo(3.2813463490987864, 10);
    expect(below.message).toBe(
      "broken DP: the attack proves ε ≥ 3.281 at 95 % confidence (100 members, 100 non-members), above the accountant's ε = 3.000 (δ = 0); the training cannot be DP as accounted",
    );
    expect(checkEmpiricalEpsilon(scores, { accountantEpsilon: 3.5, delta: 0 }).broken).toBe(false);
    expect(checkEmpiricalEpsilon(scores, { accountantEpsilon: Infinity, delta: 0 }).message).toContain("within the accountant's ε = ∞");
    // A higher confidence proves less: at 99 % q = 0.005^(1/100) and the bound is 2.911…, below 3.
    expect(checkEmpiricalEpsilon(scores, { accountantEpsilon: 3, delta: 0, confidence: 0.99 }).broken).toBe(false);
  });

  it('rejects bad options with the argument, expected and actual value', () => {
    const scores = { memberScores: [1, 2], nonMemberScores: [0, 1] };
    expect(() => checkEmpiricalEpsilon(scores, { accountantEpsilon: -1, delta: 1e-5 })).toThrow(
      'checkEmpiricalEpsilon: accountantEpsilon must be a number ≥ 0 (Infinity allowed), got -1',
    );
    expect(() => checkEmpiricalEpsilon(scores, { accountantEpsilon: 1, delta: 1 })).toThrow('checkEmpiricalEpsilon: delta must be a number in [0, 1), got 1');
    expect(() => checkEmpiricalEpsilon({ memberScores: [], nonMemberScores: [0] }, { accountantEpsilon: 1, delta: 0 })).toThrow(
      /memberScores must not be empty/,
    );
  });

  // The canary audit: 500 canaries (random points of R^64 with random labels among 10: out of
  // distribution and mislabeled, nothing to learn but each point itself), each included in the
  // training set with probability 1/2; a 64-64-10 ReLU MLP trained by DP-SGD (Poisson q = 0.5,
  // 150 steps, C = 1, σ for ε = 1 at δ = 10⁻³); every canary scored by its negated loss. A correct
  // training cannot tell its canaries from the others; with the noise silently off (a broken
  // implementation whose accountant still counts σ) the canaries are memorised and the bound reaches
  // ≈ 4.2, the most 248 + 252 canaries can prove.
  describe('a canary audit of a DP-SGD training', () => {
    const [dim, classes, canaries, hidden, steps, sampleRate, delta] = [64, 10, 500, 64, 150, 0.5, 1e-3];
    const random = seededRandom(7);
    const features = Float32Array.from({ length: canaries * dim }, () => random.normal());
    const labels = Int32Array.from({ length: canaries }, () => random.int(classes));
    const included = Array.from({ length: canaries }, () => random.next() < 0.5);
    const members = included.flatMap((inside, i) => (inside ? [i] : []));
    const noiseMultiplier = noiseMultiplierFor({ targetEpsilon: 1, sampleRate, steps, delta });
    const accountantEpsilon = epsilonOf({ sampleRate, noiseMultiplier, steps, delta }).epsilon;

    /** Trains on the included canaries with `noiseUsed` as the noise actually added; returns every canary's score. */
    function auditScores(noiseUsed: number): { memberScores: number[]; nonMemberScores: number[] } {
      const init = seededRandom(3);
      const variable = (shape: [number, number], std: number) =>
        tf.variable(
          tf.tensor2d(
            Float32Array.from({ length: shape[0] * shape[1] }, () => std * init.normal()),
            shape,
          ),
        );
      const variables = [
        variable([dim, hidden], 1 / Math.sqrt(dim)),
        tf.variable(tf.zeros([hidden])),
        variable([hidden, classes], 1 / Math.sqrt(hidden)),
        tf.variable(tf.zeros([classes])),
      ];
      const [w1, b1, w2, b2] = variables as [tf.Variable, tf.Variable, tf.Variable, tf.Variable];
      const forward = (x: tf.Tensor, tape: PerExampleTape) => tape.dense(tf.relu(tape.dense(x as tf.Tensor2D, w1, b1)), w2, b2);
      const x = tf.tensor2d(features, [canaries, dim]);
      const y = tf.tensor1d(labels, 'int32');
      const trainX = tf.gather(x, members);
      const trainY = tf.gather(y, members);
      const stream = seededRandom(11);
      for (let step = 0; step < steps; step++) {
        const batch = tf.tidy(() => {
          const indices = tf.tensor1d(poissonSample(members.length, { sampleRate, random: stream }), 'int32');
          return { x: tf.gather(trainX, indices), y: tf.gather(trainY, indices) };
        });
        const options = { variables, clipNorm: 1, noiseMultiplier: noiseUsed, expectedBatchSize: sampleRate * members.length, random: stream };
        const { grads, loss } = dpSgdTapedGradients(forward, batch, options);
        tf.tidy(() => variables.forEach((v) => v.assign(tf.sub(v, tf.mul(grads[v.name]!, 4)))));
        tf.dispose([batch.x, batch.y, loss, ...Object.values(grads)]);
      }
      const plain: PerExampleTape = {
        dense: (h, w, b) => tf.add(tf.matMul(h, w as tf.Tensor2D), b!),
        conv2d: () => {
          throw new Error('unused');
        },
        affine: () => {
          throw new Error('unused');
        },
      };
      const scores = tf.tidy(() => Array.from(tf.neg(crossEntropyPerExample(forward(x, plain), y)).dataSync()));
      tf.dispose([x, y, trainX, trainY, ...variables]);
      return { memberScores: scores.filter((_, i) => included[i]), nonMemberScores: scores.filter((_, i) => !included[i]) };
    }

    it('fires on the broken training (noise off, accountant at σ for ε = 1)', () => {
      const result = checkEmpiricalEpsilon(auditScores(0), { accountantEpsilon, delta });
      expect(accountantEpsilon).toBeGreaterThan(0.98);
      expect(accountantEpsilon).toBeLessThanOrEqual(1);
      expect(result.broken).toBe(true);
      expect(result.empiricalEpsilon).toBeGreaterThan(3.5);
    });

    it('does not fire on the correct training of the same canaries', () => {
      const result = checkEmpiricalEpsilon(auditScores(noiseMultiplier), { accountantEpsilon, delta });
      expect(result.broken).toBe(false);
      expect(result.empiricalEpsilon).toBeLessThan(0.5);
    });
  });
});
