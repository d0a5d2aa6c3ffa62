import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, sgd, train, type Classifier } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDpSgdPlugin, dpSgdPlugin } from '../dp-sgd/dp-sgd-plugin';
import { createGradientCanaries } from './gradient-canaries';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const quiet = { progressBar: false } as const;
const snapshot = (model: Classifier) => model.trainableVariables.map((v) => Float64Array.from(v.dataSync()));

describe('createGradientCanaries', () => {
  it('without noise, an included dedicated canary moves by steps · lr · C / (qN) and an excluded one not at all (hand calculation)', async () => {
    // q = 1: every example and every included canary joins both steps (2 epochs × 1 batch of 16).
    // Raw canary norm 10·C = 15, clipped to 15·min(1, 1.5/(15 + 1e-6)) = 1.5; lr 1, divisor qN = 16.
    const data = syntheticClassification({ size: 16, numFeatures: 5, numClasses: 3, seed: 1 });
    for (const [faults, perStep] of [
      [{}, (15 * Math.min(1, 1.5 / (15 + 1e-6))) / 16],
      [{ skipClipping: true }, 15 / 16], // a training that skips clipping lets the raw norm through
    ] as const) {
      const model = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
      const canaries = createGradientCanaries({ count: 40, seed: 3 });
      const plugin = createDpSgdPlugin({ clipNorm: 1.5, noiseMultiplier: 0, sampleRate: 1, data, canaries }, faults);
      await train(model, data, { epochs: 2, batchSize: 16, optimizer: sgd({ lr: 1 }), plugins: [plugin], ...quiet });
      const scores = canaries.scores();
      const inclusion = canaries.inclusion();
      expect(inclusion.filter((v) => v === 1).length).toBeGreaterThan(10);
      scores.forEach((s, i) => expect(s).toBeCloseTo(inclusion[i] === 1 ? 2 * perStep : 0, 6));
      canaries.dispose();
      model.dispose();
    }
    data.dispose();
  });

  it("with placement 'model', one step adds lr · C / (qN) at exactly the included canaries' coordinates", async () => {
    const data = syntheticClassification({ size: 16, numFeatures: 5, numClasses: 3, seed: 1 });
    const run = async (withCanaries: boolean) => {
      const model = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
      const canaries = createGradientCanaries({ count: 30, seed: 4, placement: 'model', gradientNorm: 1 });
      const plugin = dpSgdPlugin({ clipNorm: 1.5, noiseMultiplier: 0, sampleRate: 1, data, ...(withCanaries ? { canaries } : {}) });
      await train(model, data, { epochs: 1, batchSize: 16, optimizer: sgd({ lr: 1 }), plugins: [plugin], ...quiet });
      return { model, canaries };
    };
    const plain = await run(false);
    const audited = await run(true);
    const [before, after] = [snapshot(plain.model), snapshot(audited.model)];
    const moved = before.flatMap((w, k) => Array.from(w, (b, j) => b - after[k]![j]!)); // plain − audited: the canaries' extra descent
    const changed = moved.flatMap((d, j) => (Math.abs(d) > 1e-7 ? [j] : []));
    const inclusion = audited.canaries.inclusion();
    const included = inclusion.reduce((a, b) => a + b, 0);
    expect(changed.length).toBe(included); // raw norm 1 < C: unclipped, each adds 1/16
    for (const j of changed) expect(moved[j]).toBeCloseTo(1 / 16, 6);
    // Each score is initial − final at its coordinate; included canaries sit on the changed coordinates.
    const fresh = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
    const initial = snapshot(fresh).flatMap((w) => Array.from(w));
    fresh.dispose();
    const descent = after.flatMap((w) => Array.from(w)).map((a, j) => initial[j]! - a);
    audited.canaries.scores(audited.model).forEach((score, i) => {
      const at = descent.flatMap((d, j) => (Math.abs(d - score) < 1e-7 ? [j] : []));
      expect(at.length, `canary ${i}`).toBeGreaterThan(0);
      if (inclusion[i] === 1)
        expect(
          at.some((j) => changed.includes(j)),
          `canary ${i}`,
        ).toBe(true);
    });
    expect(() => audited.canaries.scores(plain.model)).toThrow('GradientCanaries.scores: model must be the model the canaries were trained in');
    plain.model.dispose();
    audited.model.dispose();
    data.dispose();
  });

  it('each included canary joins each step with probability q (Poisson, like an example), and noise reaches the canaries', async () => {
    const data = syntheticClassification({ size: 40, numFeatures: 5, numClasses: 3, seed: 1 });
    const model = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
    const canaries = createGradientCanaries({ count: 400, seed: 5, gradientNorm: 1 });
    const plugin = dpSgdPlugin({ clipNorm: 1, noiseMultiplier: 0, sampleRate: 0.25, data, canaries });
    await train(model, data, { epochs: 5, batchSize: 10, optimizer: sgd({ lr: 1 }), plugins: [plugin], ...quiet });
    const inclusion = canaries.inclusion();
    const joins = Array.from(canaries.scores(), (s) => s * 10); // each join adds lr·1/(qN) = 1/10
    joins.forEach((k, i) => {
      expect(Math.abs(k - Math.round(k))).toBeLessThan(1e-4);
      if (inclusion[i] === 0) expect(k).toBe(0);
    });
    const inJoins = joins.filter((_, i) => inclusion[i] === 1);
    const mean = inJoins.reduce((a, b) => a + b, 0) / inJoins.length;
    expect(mean).toBeGreaterThan(5 - 0.5); // 20 steps × q = 0.25: 5 joins on average (SE ≈ 0.14)
    expect(mean).toBeLessThan(5 + 0.5);
    canaries.dispose();
    model.dispose();

    const noisy = createGradientCanaries({ count: 200, seed: 5 });
    const model2 = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
    const noisyPlugin = dpSgdPlugin({ clipNorm: 1, noiseMultiplier: 2, sampleRate: 0.25, data, canaries: noisy });
    await train(model2, data, { epochs: 5, batchSize: 10, optimizer: sgd({ lr: 1 }), plugins: [noisyPlugin], ...quiet });
    const out = Array.from(noisy.scores()).filter((_, i) => noisy.inclusion()[i] === 0);
    const sd = Math.sqrt(out.reduce((a, s) => a + s * s, 0) / out.length);
    expect(sd).toBeGreaterThan(0.8 * ((2 * Math.sqrt(20)) / 10)); // σC·√T/(qN) = 0.894
    expect(sd).toBeLessThan(1.2 * ((2 * Math.sqrt(20)) / 10));
    noisy.dispose();
    model2.dispose();
    data.dispose();
  });

  it('dedicated canaries leave the model bit-identical to the same training without them (the audit does not change the model)', async () => {
    const data = syntheticClassification({ size: 40, numFeatures: 5, numClasses: 3, seed: 1 });
    const run = async (withCanaries: boolean) => {
      const model = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
      const canaries = createGradientCanaries({ count: 300, seed: 8 });
      const plugin = dpSgdPlugin({ clipNorm: 1, noiseMultiplier: 1.3, sampleRate: 0.25, data, ...(withCanaries ? { canaries } : {}) });
      await train(model, data, { epochs: 3, batchSize: 10, seed: 6, optimizer: sgd({ lr: 0.5, momentum: 0.9 }), plugins: [plugin], ...quiet });
      const weights = snapshot(model).map((w) => Array.from(w));
      const scores = withCanaries ? Array.from(canaries.scores()) : [];
      canaries.dispose();
      model.dispose();
      return { weights, scores };
    };
    const plain = await run(false);
    const audited = await run(true);
    expect(audited.weights).toEqual(plain.weights);
    expect(audited.scores.some((s) => s !== 0)).toBe(true);
    data.dispose();
  });

  it('is deterministic for a seed, draws ½ inclusion, and leaks no tensor', async () => {
    const data = syntheticClassification({ size: 24, numFeatures: 5, numClasses: 3, seed: 1 });
    const run = async (seed: number) => {
      const tensors = tf.memory().numTensors;
      const model = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
      const canaries = createGradientCanaries({ count: 1000, seed });
      const plugin = dpSgdPlugin({ clipNorm: 1, noiseMultiplier: 1, sampleRate: 0.5, data, canaries });
      await train(model, data, { epochs: 2, batchSize: 12, seed: 9, optimizer: sgd({ lr: 0.5 }), plugins: [plugin], ...quiet });
      const result = { scores: Array.from(canaries.scores()), inclusion: Array.from(canaries.inclusion()) };
      canaries.dispose();
      model.dispose();
      expect(tf.memory().numTensors).toBe(tensors);
      return result;
    };
    const [a, b, c] = [await run(1), await run(1), await run(2)];
    expect(a).toEqual(b);
    expect(a.inclusion).not.toEqual(c.inclusion);
    const included = a.inclusion.reduce((x, y) => x + y, 0);
    expect(Math.abs(included - 500)).toBeLessThan(60); // Binomial(1000, ½): SD 15.8
    data.dispose();
  });

  it('refuses bad options, a second training, scoring before training and shuffled batches', async () => {
    expect(() => createGradientCanaries({ count: 0, seed: 1 })).toThrow('createGradientCanaries: count must be a positive integer, got 0');
    expect(() => createGradientCanaries({ count: 5, seed: 1.5 })).toThrow('createGradientCanaries: seed must be an integer, got 1.5');
    expect(() => createGradientCanaries({ count: 5, seed: 1, placement: 'layer' as 'model' })).toThrow(
      `createGradientCanaries: placement must be 'dedicated' or 'model', got "layer"`,
    );
    expect(() => createGradientCanaries({ count: 5, seed: 1, gradientNorm: 0 })).toThrow(
      'createGradientCanaries: gradientNorm must be a finite number > 0, got 0',
    );
    const canaries = createGradientCanaries({ count: 5, seed: 1 });
    expect(() => canaries.scores()).toThrow(InvalidArgumentError);
    expect(() => dpSgdPlugin({ clipNorm: 1, noiseMultiplier: 1, sampling: 'shuffle', canaries })).toThrow(
      "dpSgdPlugin: canaries must be absent with sampling 'shuffle' (canaries join Poisson batches)",
    );
    const data = syntheticClassification({ size: 8, numFeatures: 5, numClasses: 3, seed: 1 });
    const model = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
    const options = { clipNorm: 1, noiseMultiplier: 1, sampleRate: 0.5, data, canaries };
    await train(model, data, { epochs: 1, batchSize: 4, optimizer: sgd({ lr: 0.1 }), plugins: [dpSgdPlugin(options)], ...quiet });
    const again = train(model, data, { epochs: 1, batchSize: 4, optimizer: sgd({ lr: 0.1 }), plugins: [dpSgdPlugin(options)], ...quiet });
    await expect(again).rejects.toThrow('createGradientCanaries: each canary set audits one training; create new canaries for another run');
    const tooMany = createGradientCanaries({ count: 1000, seed: 1, placement: 'model' });
    const run = train(model, data, {
      epochs: 1,
      batchSize: 4,
      optimizer: sgd({ lr: 0.1 }),
      plugins: [dpSgdPlugin({ ...options, canaries: tooMany })],
      ...quiet,
    });
    await expect(run).rejects.toThrow('createGradientCanaries: count must be at most the model\'s 57 trainable coordinates with placement "model", got 1000');
    canaries.dispose();
    model.dispose();
    data.dispose();
  });
});
