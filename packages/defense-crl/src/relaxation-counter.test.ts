import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { sgd, train } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { crlObjective } from './crl-loss';
import { resolveCrlOptions } from './crl-options';
import { crlPlugin } from './crl-plugin';
import { createRelaxationCounter, formatRelaxationEpoch, summarizeRelaxation } from './relaxation-counter';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

// Three classes, d = 2, t = t_cl = 0 (no normalisation), α_rce = 0.5, α_rcl = 0.1.
const o = resolveCrlOptions('test', { alpha: 0.5, t: 0, alphaCenter: 0.1, tCenter: 0, lambda: 1 });
const centers = [
  [1, 0],
  [0, 1],
  [-1, 0],
];
const labels = [0, 1];
// Confident logits: CE = log(1 + 2e^-10) ≈ 9.1e-5 ≤ 0.5. Flat logits: CE = ln 3 ≈ 1.0986 > 0.5.
const confident = [
  [10, 0, 0],
  [0, 10, 0],
];
const flat = [
  [0, 0, 0],
  [0, 0, 0],
];
// Features on their centres: dist = 0 ≤ 0.1. Far: ‖f − c‖² = 4 each, dist = (4 + 4)/(2·2) = 2 > 0.1.
const near = [
  [1, 0],
  [0, 1],
];
const far = [
  [-1, 0],
  [0, -1],
];

/** Runs one batch through the CRL objective with the counter observing it. */
function observe(counter: ReturnType<typeof createRelaxationCounter>, logits: number[][], features: number[][], epoch: number): void {
  const b = { logits: tf.tensor2d(logits), features: tf.tensor2d(features), labels: tf.tensor1d(labels, 'int32'), centers: tf.tensor2d(centers) };
  tf.dispose(crlObjective('test', b, o, epoch, counter));
  tf.dispose([b.logits, b.features, b.labels, b.centers]);
}

describe('relaxation counter', () => {
  it('counts per epoch the batches on which each relaxed branch fires, with the mean branch values', () => {
    const counter = createRelaxationCounter(o.alpha, o.alphaCenter, true, 1);
    const before = tf.memory().numTensors;
    // Epoch 0 (CRL's epoch 1, odd): soft branches. rce fires on batches 1 and 3, rcl on batch 1 only.
    observe(counter, confident, near, 0);
    observe(counter, flat, far, 0);
    observe(counter, confident, far, 0);
    expect(tf.memory().numTensors).toBe(before);
    const e0 = counter.endEpoch(0);
    expect(e0).toMatchObject({ epoch: 0, branch: 'soft', batches: 3, rce: 2, rcl: 1 });
    const ceConfident = Math.log(1 + 2 * Math.exp(-10));
    expect(e0.meanRce).toBeCloseTo((2 * ceConfident + Math.log(3)) / 3, 5);
    expect(e0.meanRcl!).toBeCloseTo((0 + 2 + 2) / 3, 5);
    // Epoch 1 (CRL's epoch 2, even): gradient-ascent branches; the counts start again from zero.
    observe(counter, flat, near, 1);
    const e1 = counter.endEpoch(1);
    expect(e1).toMatchObject({ epoch: 1, branch: 'ascent', batches: 1, rce: 0, rcl: 1 });
    expect(summarizeRelaxation([e0, e1])).toEqual({ batches: 4, rceAscent: 0, rceSoft: 2, rclAscent: 1, rclSoft: 1 });
    expect(formatRelaxationEpoch(e0)).toMatch(/^crl epoch 1 \(soft\): ℓ_rce ≤ α_rce in 2\/3 batches \(mean 0\.366\), dist ≤ α_rcl in 1\/3 \(mean 1\.333\)$/);
    counter.dispose();
    expect(tf.memory().numTensors).toBe(before - 1);
  });

  it("has no centre counts for components 'impRelaxLoss'", () => {
    const imp = resolveCrlOptions('test', { alpha: 0.5, t: 0, components: 'impRelaxLoss' });
    const counter = createRelaxationCounter(imp.alpha, imp.alphaCenter, false, 1);
    const b = { logits: tf.tensor2d(confident), features: tf.tensor2d(far), labels: tf.tensor1d(labels, 'int32') };
    tf.dispose(crlObjective('test', b, imp, 0, counter));
    tf.dispose([b.logits, b.features, b.labels]);
    const e = counter.endEpoch(0);
    expect(e).toMatchObject({ rce: 1, rcl: null, meanRcl: null });
    expect(summarizeRelaxation([e])).toEqual({ batches: 1, rceAscent: 0, rceSoft: 1, rclAscent: null, rclSoft: null });
    expect(formatRelaxationEpoch(e)).not.toMatch(/α_rcl/);
    counter.dispose();
  });

  it('crlPlugin records one deterministic entry per epoch and logs it', async () => {
    const data = syntheticClassification({ size: 40, numFeatures: 4, numClasses: 3, seed: 3 });
    const run = async () => {
      const model = tinyMlp({ inputDim: 4, hidden: [6], numClasses: 3, seed: 4 });
      const lines: string[] = [];
      // α_rce = 1.2 is above ln 3 ≈ 1.10, so the ImpRelaxLoss branch fires from the first batch.
      const plugin = crlPlugin({
        alpha: 1.2,
        t: 0.05,
        alphaCenter: 0.1,
        tCenter: 0.05,
        lambda: 0.1,
        numClasses: 3,
        featureDim: 6,
        seed: 1,
        onLog: (l) => lines.push(l),
      });
      const optimizer = sgd({ lr: 0.1, momentum: 0.9 });
      try {
        await train(model, data, { epochs: 3, batchSize: 10, optimizer, plugins: [plugin], seed: 7, progressBar: false });
      } finally {
        optimizer.dispose();
        plugin.dispose();
        model.dispose();
      }
      return { counts: plugin.relaxation, lines };
    };
    const before = tf.memory().numTensors;
    const a = await run();
    expect(tf.memory().numTensors).toBe(before);
    expect(a.counts.map((c) => [c.epoch, c.branch, c.batches])).toEqual([
      [0, 'soft', 4],
      [1, 'ascent', 4],
      [2, 'soft', 4],
    ]);
    expect(a.counts[0]!.rce).toBeGreaterThan(0);
    expect(a.lines).toHaveLength(3);
    expect(a.lines[0]).toMatch(/^crl epoch 1 \(soft\): ℓ_rce ≤ α_rce in \d\/4 batches/);
    expect((await run()).counts).toEqual(a.counts);
    data.dispose();
  });
});
