import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { runCclExample } from './main';

describe('ccl-plain-tfjs example (smoke, tiny scale)', () => {
  it('trains CE and CCL models and reports the comparison', async () => {
    await runCclExample({ trainSize: 20, epochs: 1, batchSize: 20, hidden: [4] }); // warm-up: backend and layers state
    const before = tf.memory().numTensors;
    const result = await runCclExample({ trainSize: 60, epochs: 2, batchSize: 30, hidden: [16] });
    expect(result.dataset).toEqual({ name: 'purchaseLike', source: 'stand-in', trainSize: 60, testSize: 60 });
    expect(result.runs.map((r) => r.loss)).toEqual(['ce', 'ccl']);
    expect(result.settings).toMatchObject({ trainSize: 60, epochs: 2, alpha: 0.5, concave: 'quadratic' });
    for (const r of result.runs) {
      for (const key of ['trainAccuracy', 'testAccuracy', 'lossAttackAdvantage'] as const) {
        expect(r[key]).toBeGreaterThanOrEqual(0);
        expect(r[key]).toBeLessThanOrEqual(1);
      }
      expect(r.trainLossMean).toBeGreaterThan(0);
      expect(r.trainLossVariance).toBeGreaterThanOrEqual(0);
    }
    // tfjs-layers 4.22 keeps one tensor per `model.fit` call whatever the loss (checked with plain
    // CE alone), so two fits leave two; anything more would be a leak of the example or of cclLoss.
    expect(tf.memory().numTensors - before).toBeLessThanOrEqual(2);
  });
});
