import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { CheckpointError, evaluate, sgd, train, type BatchContext, type TrainingPlugin } from '@mia/core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confidencePenaltyPlugin } from './confidence-penalty-loss';
import { earlyStopping } from './early-stopping';
import { l1Plugin, l2SgdOptions } from './l1-plugin';
import { labelSmoothingPlugin } from './label-smoothing-loss';
import { relaxLossPlugin } from './relax-loss';
import { tinyModel, tinySplits, weightsOf } from './test-utils/fixtures';

beforeAll(async () => {
  await tf.setBackend('cpu');
});
const dir = mkdtempSync(join(tmpdir(), 'mia-baselines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loss plugins in core train', () => {
  it('RelaxLoss keeps the training loss near α while plain CE drives it lower; no leaks', async () => {
    const { members, dispose } = tinySplits();
    const trainLoss = async (plugins: TrainingPlugin[]) => {
      const model = tinyModel(1);
      const optimizer = sgd({ lr: 0.1, momentum: 0.9 });
      const before = tf.memory().numTensors;
      await train(model, members, { epochs: 30, batchSize: 16, optimizer, plugins, progressBar: false });
      optimizer.dispose();
      const loss = evaluate(model, members).loss;
      model.dispose();
      expect(tf.memory().numTensors).toBe(before - model.trainableVariables.length);
      return loss;
    };
    const plain = await trainLoss([]);
    const relaxed = await trainLoss([relaxLossPlugin({ alpha: 0.6, variant: 'tabular' })]);
    expect(plain).toBeLessThan(0.35);
    expect(relaxed).toBeGreaterThan(0.45);
    for (const plugin of [labelSmoothingPlugin({ epsilon: 0.2 }), confidencePenaltyPlugin({ beta: 0.5 })]) await trainLoss([plugin]);
    dispose();
  });
});

describe('l1Plugin / l2SgdOptions', () => {
  it('adds λ·sign(W) to weight gradients only', () => {
    const model = tinyModel(2);
    const grads = Object.fromEntries(model.trainableVariables.map((v) => [v.name, tf.zerosLike(v)]));
    const plugin = l1Plugin({ lambda: 0.5 });
    const out = plugin.adjustGradients!({ model } as unknown as BatchContext, grads);
    for (const group of model.parameterGroups) {
      const sign = Array.from(group.weight.dataSync(), (w) => 0.5 * Math.sign(w));
      expect(Array.from(out[group.weight.name]!.dataSync())).toEqual(sign.map((s) => Math.fround(s)));
      expect(Array.from(out[group.bias!.name]!.dataSync()).every((g) => g === 0)).toBe(true);
    }
    const withBias = l1Plugin({ lambda: 0.5, includeBiases: true }).adjustGradients!({ model } as unknown as BatchContext, grads);
    const bias = model.parameterGroups[0]!.bias!;
    expect(Array.from(withBias[bias.name]!.dataSync())).toEqual(Array.from(bias.dataSync(), (b) => 0.5 * Math.sign(b)));
    for (const t of [...Object.values(out), ...Object.values(withBias)]) t.dispose();
    for (const t of Object.values(grads)) t.dispose();
    model.dispose();
    expect(() => l1Plugin({ lambda: -1 })).toThrow(/l1Plugin: lambda must be a number ≥ 0, got -1/);
  });

  it('builds SGD options with the L2 weight decay', () => {
    expect(l2SgdOptions(1e-3)).toEqual({ lr: 0.01, momentum: 0.9, weightDecay: 1e-3 });
    expect(l2SgdOptions(0, { lr: 0.1, nesterov: true })).toEqual({ lr: 0.1, momentum: 0.9, nesterov: true, weightDecay: 0 });
    expect(() => l2SgdOptions(-1)).toThrow(/l2SgdOptions: weightDecay/);
  });
});

describe('earlyStopping', () => {
  for (const directory of [undefined, dir]) {
    it(`restores the weights of epoch snapshots and of the best validation epoch (${directory === undefined ? 'memory' : 'files'})`, async () => {
      const { members, other, dispose } = tinySplits();
      const model = tinyModel(3);
      const seen: number[][][] = [];
      const accuracies: number[] = [];
      const recorder: TrainingPlugin = {
        name: 'recorder',
        onEpochEnd: (info) => {
          seen.push(weightsOf(info.model));
          accuracies.push(evaluate(info.model, other).accuracy);
        },
      };
      const stopper = earlyStopping({ snapshotEpochs: [2, 4], validation: other, directory });
      const optimizer = sgd({ lr: 0.2, momentum: 0.9 });
      const before = tf.memory().numTensors;
      await train(model, members, { epochs: 6, batchSize: 16, optimizer, plugins: [stopper, recorder], progressBar: false });
      expect(stopper.savedEpochs).toEqual([2, 4]);
      await stopper.restore(model, 2);
      expect(weightsOf(model)).toEqual(seen[1]);
      const best = accuracies.indexOf(Math.max(...accuracies));
      expect(stopper.bestEpoch).toBe(best + 1);
      expect(stopper.bestAccuracy).toBe(accuracies[best]);
      await stopper.restore(model, 'best');
      expect(weightsOf(model)).toEqual(seen[best]);
      await expect(stopper.restore(model, 3)).rejects.toThrow(/earlyStopping.restore: no snapshot 3/);
      stopper.dispose();
      optimizer.dispose();
      expect(tf.memory().numTensors).toBe(before);
      model.dispose();
      dispose();
    });
  }

  it('reports a corrupted snapshot file with a CheckpointError', async () => {
    const sub = join(dir, 'corrupted');
    const { members, dispose } = tinySplits();
    const model = tinyModel(4);
    const stopper = earlyStopping({ snapshotEpochs: [1], directory: sub });
    const optimizer = sgd({ lr: 0.1 });
    await train(model, members, { epochs: 1, batchSize: 16, optimizer, plugins: [stopper], progressBar: false });
    writeFileSync(join(sub, 'epoch-1.ckpt'), 'not a checkpoint');
    await expect(stopper.restore(model, 1)).rejects.toThrow(CheckpointError);
    optimizer.dispose();
    model.dispose();
    dispose();
  });

  it('rejects bad epochs', () => {
    expect(() => earlyStopping({ snapshotEpochs: [0] })).toThrow(/earlyStopping: snapshotEpochs\[0\] must be a positive integer, got 0/);
    expect(() => earlyStopping({ snapshotEpochs: [3, 3] })).toThrow(/distinct/);
  });
});
