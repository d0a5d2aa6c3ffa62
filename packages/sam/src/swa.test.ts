import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { labeledData, sgd, train, type TrainingPlugin } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { reestimateStatistics } from './reestimate-statistics';
import { applySwa, swa } from './swa';
import { bnLikeClassifier } from './test-utils/fixtures';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('swa', () => {
  it('averages the end-of-epoch weights from epoch `start` (0-based) and applySwa writes them', async () => {
    const data = syntheticClassification({ size: 30, numFeatures: 4, numClasses: 3, seed: 1 });
    const model = tinyMlp({ inputDim: 4, numClasses: 3, seed: 2 });
    const snapshots: number[][] = [];
    const recorder: TrainingPlugin = { name: 'recorder', onEpochEnd: (info) => void snapshots.push(Array.from(info.model.trainableVariables[0]!.dataSync())) };
    const plugin = swa({ start: 1 });
    const optimizer = sgd({ lr: 0.2 });
    const before = tf.memory().numTensors;
    await train(model, data, { epochs: 4, batchSize: 10, optimizer, plugins: [recorder, plugin], seed: 1, progressBar: false });
    expect(plugin.count).toBe(3);
    applySwa(model, plugin);
    const got = model.trainableVariables[0]!.dataSync();
    for (let k = 0; k < got.length; k++) expect(got[k]!).toBeCloseTo((snapshots[1]![k]! + snapshots[2]![k]! + snapshots[3]![k]!) / 3, 6);
    optimizer.dispose();
    plugin.dispose();
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
    data.dispose();
  });
  it('rejects an empty average and a foreign model', () => {
    const model = tinyMlp({ inputDim: 4, numClasses: 3 });
    expect(() => applySwa(model, swa({ start: 0 }))).toThrow(/applySwa: the plugin must have averaged at least one epoch/);
    expect(() => swa({ start: -1 })).toThrow(/swa: start must be a non-negative integer, got -1/);
    model.dispose();
  });
});

describe('reestimateStatistics', () => {
  it('sets a momentum-0.1 running mean to the equal-weight mean of the data (like update_bn)', () => {
    // x rows: mean over all 5 rows = [(1+3−1+1+6)/5, (2+0+1+1+1)/5] = [2, 1]
    const x = tf.tensor2d([
      [1, 2],
      [3, 0],
      [-1, 1],
      [1, 1],
      [6, 1],
    ]);
    const data = labeledData({ x, y: [0, 1, 0, 1, 0], numClasses: 2 });
    const model = bnLikeClassifier();
    model.runningMean.assign(tf.tensor1d([100, -100]));
    const before = tf.memory().numTensors;
    reestimateStatistics(model, data, { batchSize: 2 });
    expect(tf.memory().numTensors).toBe(before);
    const got = model.runningMean.dataSync();
    expect(got[0]).toBeCloseTo(2, 5);
    expect(got[1]).toBeCloseTo(1, 5);
    // a state variable the forward never updates keeps its value
    expect(Array.from(model.untouched.dataSync())).toEqual([7, 7]);
    expect(Array.from(model.trainableVariables[0]!.dataSync())).toEqual([1, -1]);
    model.dispose();
    x.dispose();
  });
  it('rejects a bad batch size', () => {
    const model = bnLikeClassifier();
    const x = tf.ones([2, 2]);
    expect(() => reestimateStatistics(model, labeledData({ x, y: [0, 1], numClasses: 2 }), { batchSize: 0 })).toThrow(
      /batchSize must be a positive integer, got 0/,
    );
    model.dispose();
    x.dispose();
  });
});
