import * as tf from '@tensorflow/tfjs-core';
import { crossEntropyPerExample, labeledData } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCpu } from '../test-utils/setup';
import { computeSignals } from './compute-signals';
import { flipNoiseCounts } from './flip-noise-counts';
import { inputGradientNorms } from './input-gradient-norms';

beforeAll(useCpu);

describe('computeSignals', () => {
  let data: ReturnType<typeof syntheticClassification>;
  let model: ReturnType<typeof tinyMlp>;
  beforeAll(() => {
    data = syntheticClassification({ size: 20, numFeatures: 6, numClasses: 3, seed: 4 });
    model = tinyMlp({ inputDim: 6, hidden: [8], numClasses: 3, seed: 2 });
  });
  afterAll(() => {
    data.dispose();
    model.dispose();
  });

  it('matches the eval-mode forward pass, batched, with queries, and leaks nothing', () => {
    const before = tf.memory().numTensors;
    const s = computeSignals(model, data, { batchSize: 7, queries: [(x) => tf.mul(x, 0), (x) => x] });
    expect(tf.memory().numTensors).toBe(before);
    const losses = tf.tidy(() =>
      crossEntropyPerExample(
        model.forward(data.gather(Array.from({ length: 20 }, (_, i) => i)), { training: false }).logits,
        tf.tensor1d(data.y, 'int32'),
      ).dataSync(),
    );
    s.loss.forEach((v, i) => expect(v).toBeCloseTo(losses[i]!, 5));
    expect(s.queries).toHaveLength(2);
    s.queries![1]!.loss.forEach((v, i) => expect(v).toBeCloseTo(s.loss[i]!, 9));
    const zeroInput = s.queries![0]!.logits!;
    for (let i = 1; i < 20; i++) expect(zeroInput[i * 3]).toBeCloseTo(zeroInput[0]!, 6); // same input → same logits
  });

  it('input-gradient norms from the batch-sum trick equal per-example gradients', () => {
    const before = tf.memory().numTensors;
    const batched = inputGradientNorms(model, data, { batchSize: 20 });
    expect(tf.memory().numTensors).toBe(before);
    for (const i of [0, 5, 19]) {
      const single = tf.tidy(() => {
        const x = data.gather([i]);
        const y = tf.tensor1d([data.y[i]!], 'int32');
        const g = tf.grad((input: tf.Tensor) => tf.sum(crossEntropyPerExample(model.forward(input, { training: false }).logits, y)))(x);
        return tf.norm(g).dataSync()[0]!;
      });
      expect(batched[i]).toBeCloseTo(single, 5);
    }
    const l1 = inputGradientNorms(model, data, { norm: 'l1', indices: [0] });
    expect(l1[0]).toBeGreaterThanOrEqual(batched[0]! - 1e-6); // ‖g‖₁ ≥ ‖g‖₂
  });

  it('flip-noise counts are seeded, bounded and leak-free', () => {
    const x = tf.tensor2d(
      Array.from({ length: 60 }, (_, k) => ((k * 7) % 3 === 0 ? 1 : 0)),
      [10, 6],
    );
    const binary = labeledData({ x, y: Array.from({ length: 10 }, (_, i) => i % 3), numClasses: 3 });
    const before = tf.memory().numTensors;
    const a = flipNoiseCounts(model, binary, { flips: [1, 6], repeats: 4, seed: 3 });
    const b = flipNoiseCounts(model, binary, { flips: [1, 6], repeats: 4, seed: 3 });
    expect(tf.memory().numTensors).toBe(before);
    expect(a.flips).toEqual([1, 6]);
    expect([...a.flipCounts[0]!]).toEqual([...b.flipCounts[0]!]);
    expect(a.flipCounts[1]!.every((c) => c >= 0 && c <= 4 && Number.isInteger(c))).toBe(true);
    // m = d flips every feature: every repeat sees the same input 1 − x, so counts are 0 or 4.
    expect(a.flipCounts[1]!.every((c) => c === 0 || c === 4)).toBe(true);
    x.dispose();
  });
});
