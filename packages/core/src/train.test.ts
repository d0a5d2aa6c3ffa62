import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine } from './lr-schedules';
import { sgd } from './sgd';
import { syntheticClassification, tinyCnn, tinyMlp } from './testing/index';
import { labeledData } from './labeled-data';
import { train } from './train';
import { evaluate } from './predict';
import { AbortError, InvalidArgumentError, InvalidDatasetError, ShapeMismatchError, TrainingDivergedError } from './errors';
import type { TrainingPlugin } from './training-plugin';
import type { Classifier } from './classifier';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const dir = mkdtempSync(join(tmpdir(), 'mia-train-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function weightsOf(model: Classifier): number[][] {
  return model.trainableVariables.map((v) => Array.from(v.dataSync()));
}

describe('train', () => {
  it('decreases the loss of a small MLP and leaks no tensor', async () => {
    const data = syntheticClassification({ size: 200, numFeatures: 8, numClasses: 4, noise: 0.5, seed: 1 });
    const model = tinyMlp({ inputDim: 8, hidden: [16], numClasses: 4, seed: 1 });
    const before = tf.memory().numTensors;
    const optimizer = sgd({ lr: 0.1, momentum: 0.9, weightDecay: 5e-4 });
    const result = await train(model, data, { epochs: 5, batchSize: 32, optimizer, schedule: cosine(5), seed: 3, progressBar: false });
    optimizer.dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(result.history).toHaveLength(5);
    expect(result.history[4]!.loss).toBeLessThan(result.history[0]!.loss * 0.7);
    expect(evaluate(model, data).accuracy).toBeGreaterThan(0.8);
    model.dispose();
    data.dispose();
  });

  it('gives bit-identical weights for the same seed and different ones for another seed', async () => {
    const data = syntheticClassification({ size: 100, numFeatures: 6, numClasses: 3, seed: 2 });
    const run = async (seed: number) => {
      const model = tinyMlp({ inputDim: 6, numClasses: 3, seed: 7 });
      const optimizer = sgd({ lr: 0.05, momentum: 0.9, nesterov: true });
      await train(model, data, { epochs: 2, batchSize: 16, optimizer, seed, progressBar: false });
      const w = weightsOf(model);
      optimizer.dispose();
      model.dispose();
      return w;
    };
    const a = await run(11);
    expect(await run(11)).toEqual(a);
    expect(await run(12)).not.toEqual(a);
    data.dispose();
  });

  it('gives the event loop a turn during a long epoch: a timer can abort it mid-epoch and nothing leaks', async () => {
    // 2000 batches of 1 example: one epoch takes seconds on cpu. Without the loop yielding, the
    // timer could only fire after the whole training returned, and train would resolve.
    const data = syntheticClassification({ size: 2000, numFeatures: 4, numClasses: 2, seed: 2 });
    const model = tinyMlp({ inputDim: 4, numClasses: 2, seed: 3 });
    const optimizer = sgd({ lr: 0.01 });
    const before = tf.memory().numTensors;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 20);
    const error = await train(model, data, { epochs: 3, batchSize: 1, optimizer, signal: controller.signal, progressBar: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    clearTimeout(timer);
    expect(AbortError.isInstance(error)).toBe(true);
    const batch = Number(/epoch 0, batch (\d+)/.exec((error as Error).message)?.[1]);
    expect(batch).toBeGreaterThan(0);
    expect(batch).toBeLessThan(2000);
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
    optimizer.dispose();
    data.dispose();
  });

  it('resuming from a checkpoint gives the same final weights as an uninterrupted run', async () => {
    const data = syntheticClassification({ size: 96, numFeatures: 5, numClasses: 3, seed: 4 });
    const opts = { batchSize: 16, seed: 5, progressBar: false as const };
    const full = tinyMlp({ inputDim: 5, numClasses: 3, seed: 9 });
    const optFull = sgd({ lr: 0.05, momentum: 0.9, weightDecay: 1e-3 });
    await train(full, data, { ...opts, epochs: 4, optimizer: optFull, schedule: cosine(4) });
    const expected = weightsOf(full);

    const path = join(dir, 'resume.ckpt');
    const controller = new AbortController();
    const partial = tinyMlp({ inputDim: 5, numClasses: 3, seed: 9 });
    const optPartial = sgd({ lr: 0.05, momentum: 0.9, weightDecay: 1e-3 });
    const stopAfterTwo: TrainingPlugin = {
      name: 'stop',
      onEpochEnd: ({ epoch }) => {
        if (epoch === 1) controller.abort();
      },
    };
    await expect(
      train(partial, data, {
        ...opts,
        epochs: 4,
        optimizer: optPartial,
        schedule: cosine(4),
        plugins: [stopAfterTwo],
        signal: controller.signal,
        checkpoint: { path },
      }),
    ).rejects.toSatisfy((e: unknown) => AbortError.isInstance(e));
    expect(existsSync(path)).toBe(true);
    partial.dispose();
    optPartial.dispose();

    const resumed = tinyMlp({ inputDim: 5, numClasses: 3, seed: 9 });
    const optResumed = sgd({ lr: 0.05, momentum: 0.9, weightDecay: 1e-3 });
    const r = await train(resumed, data, { ...opts, epochs: 4, optimizer: optResumed, schedule: cosine(4), checkpoint: { path }, resume: true });
    expect(r.startEpoch).toBe(2);
    expect(r.history).toHaveLength(4);
    expect(weightsOf(resumed)).toEqual(expected);
    for (const m of [full, resumed]) m.dispose();
    optFull.dispose();
    optResumed.dispose();
    data.dispose();
  });

  it('gradient accumulation gives the same update as the full batch (no BN)', async () => {
    const data = syntheticClassification({ size: 64, numFeatures: 4, numClasses: 2, seed: 6 });
    const run = async (microBatchSize?: number) => {
      const model = tinyMlp({ inputDim: 4, numClasses: 2, seed: 1 });
      const optimizer = sgd({ lr: 0.1 });
      await train(model, data, { epochs: 1, batchSize: 32, optimizer, seed: 1, progressBar: false, ...(microBatchSize ? { microBatchSize } : {}) });
      const w = weightsOf(model);
      model.dispose();
      optimizer.dispose();
      return w;
    };
    const full = (await run()).flat();
    const accumulated = (await run(8)).flat();
    for (let i = 0; i < full.length; i++) expect(accumulated[i]).toBeCloseTo(full[i]!, 5);
    data.dispose();
  });

  it('rejects bad input with errors naming the argument and the values', async () => {
    const data = syntheticClassification({ size: 20, numFeatures: 4, numClasses: 2, seed: 1 });
    const model = tinyMlp({ inputDim: 4, numClasses: 2 });
    const optimizer = sgd({ lr: 0.1 });
    await expect(train(model, data, { epochs: 1.5, batchSize: 4, optimizer })).rejects.toThrow(/train: epochs must be a positive integer, got 1.5/);
    await expect(train(model, data, { epochs: 1.5, batchSize: 4, optimizer })).rejects.toSatisfy((e: unknown) => InvalidArgumentError.isInstance(e));
    const wrongClasses = tinyMlp({ inputDim: 4, numClasses: 3 });
    await expect(train(wrongClasses, data, { epochs: 1, batchSize: 4, optimizer })).rejects.toSatisfy((e: unknown) => ShapeMismatchError.isInstance(e));
    const badLabels = { ...data, y: Int32Array.from(data.y, (v, i) => (i === 7 ? 5 : v)) };
    await expect(train(model, badLabels, { epochs: 1, batchSize: 4, optimizer })).rejects.toThrow(/y\[7\] must be an integer label in \[0, 1\], got 5/);
    await expect(train(model, badLabels, { epochs: 1, batchSize: 4, optimizer })).rejects.toSatisfy((e: unknown) => InvalidDatasetError.isInstance(e));
    const shortLabels = { ...data, y: data.y.slice(0, 10) };
    await expect(train(model, shortLabels, { epochs: 1, batchSize: 4, optimizer })).rejects.toThrow(/one label per example \(20\), got 10/);
    for (const m of [model, wrongClasses]) m.dispose();
    optimizer.dispose();
    data.dispose();
  });

  it('stops on a NaN loss naming the epoch and step, keeping the last checkpoint', async () => {
    const data = syntheticClassification({ size: 32, numFeatures: 4, numClasses: 2, seed: 1 });
    const model = tinyMlp({ inputDim: 4, numClasses: 2 });
    const optimizer = sgd({ lr: 0.1 });
    const path = join(dir, 'nan.ckpt');
    const poison: TrainingPlugin = {
      name: 'poison',
      loss: (ctx, base) => (ctx.epoch === 1 && ctx.batchIndex === 2 ? (tf.mul(base(), Number.NaN) as tf.Scalar) : base()),
    };
    const before = tf.memory().numTensors;
    await expect(train(model, data, { epochs: 3, batchSize: 8, optimizer, plugins: [poison], checkpoint: { path }, progressBar: false })).rejects.toThrow(
      /loss is NaN at epoch 1 \(0-based\), step 6/,
    );
    await expect(train(model, data, { epochs: 3, batchSize: 8, optimizer, plugins: [poison], progressBar: false })).rejects.toSatisfy((e: unknown) =>
      TrainingDivergedError.isInstance(e),
    );
    optimizer.dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(existsSync(path)).toBe(true);
    model.dispose();
    data.dispose();
  });

  it('trains a tiny CNN: loss decreases, same seed gives identical weights, no leaks', async () => {
    // Images whose class is the brightness of one quadrant: learnable by conv + pooling.
    const n = 64;
    const values = new Float32Array(n * 6 * 6 * 1);
    const y = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      y[i] = i % 2;
      for (let p = 0; p < 36; p++) values[i * 36 + p] = (y[i] === 1 ? 1 : -1) * (0.5 + ((i * 7 + p * 13) % 10) / 20);
    }
    const x = tf.tensor4d(values, [n, 6, 6, 1]);
    const data = labeledData({ x, y, numClasses: 2 });
    const run = async () => {
      const model = tinyCnn({ inputShape: [6, 6, 1], numClasses: 2, seed: 3 });
      const optimizer = sgd({ lr: 0.2, momentum: 0.9 });
      const before = tf.memory().numTensors;
      const result = await train(model, data, { epochs: 4, batchSize: 16, optimizer, seed: 1, progressBar: false });
      optimizer.dispose();
      expect(tf.memory().numTensors).toBe(before);
      const w = weightsOf(model);
      model.dispose();
      return { result, w };
    };
    const a = await run();
    expect(a.result.history[3]!.loss).toBeLessThan(a.result.history[0]!.loss * 0.5);
    expect((await run()).w).toEqual(a.w);
    x.dispose();
  });

  it('a full-batch shuffled epoch keeps labels aligned with inputs (same weights as unshuffled)', async () => {
    const data = syntheticClassification({ size: 24, numFeatures: 4, numClasses: 3, seed: 8 });
    const run = async (shuffle: boolean) => {
      const model = tinyMlp({ inputDim: 4, numClasses: 3, seed: 2 });
      const optimizer = sgd({ lr: 0.1 });
      await train(model, data, { epochs: 1, batchSize: 24, optimizer, shuffle, progressBar: false });
      const w = weightsOf(model).flat();
      model.dispose();
      optimizer.dispose();
      return w;
    };
    const a = await run(true);
    const b = await run(false);
    a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 5));
    data.dispose();
  });

  it('two optimizers can live on one model at once (phase 1, then a fresh tuning optimizer)', async () => {
    const data = syntheticClassification({ size: 16, numFeatures: 4, numClasses: 2, seed: 8 });
    const model = tinyMlp({ inputDim: 4, numClasses: 2, seed: 2 });
    const first = sgd({ lr: 0.1, momentum: 0.9 });
    const second = sgd({ lr: 0.1, momentum: 0.9 });
    await train(model, data, { epochs: 1, batchSize: 8, optimizer: first, progressBar: false });
    await expect(train(model, data, { epochs: 1, batchSize: 8, optimizer: second, progressBar: false })).resolves.toBeDefined();
    first.dispose();
    second.dispose();
    model.dispose();
    data.dispose();
  });

  it('leaks nothing when a plugin throws inside the step', async () => {
    const data = syntheticClassification({ size: 16, numFeatures: 4, numClasses: 2, seed: 8 });
    const model = tinyMlp({ inputDim: 4, numClasses: 2, seed: 2 });
    const optimizer = sgd({ lr: 0.1 });
    const before = tf.memory().numTensors;
    const broken: TrainingPlugin = {
      name: 'broken',
      loss: () => {
        throw new Error('plugin failed');
      },
    };
    await expect(train(model, data, { epochs: 1, batchSize: 8, optimizer, plugins: [broken], progressBar: false })).rejects.toThrow('plugin failed');
    expect(tf.memory().numTensors).toBe(before);
    optimizer.dispose();
    model.dispose();
    data.dispose();
  });
});
