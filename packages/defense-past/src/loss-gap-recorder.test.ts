import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { evaluate, labeledData, sgd, train } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { giniShifted, giniAbs } from '@mia/metrics';
import { giniRecorder } from './gini-recorder';
import { lossGapRecorder } from './loss-gap-recorder';
import { measureLossGap } from './measure-loss-gap';
import { parameterValues } from './parameter-values';
import { computeSensitivity } from './compute-sensitivity';
import { sensitivityRecorder } from './sensitivity-recorder';
import { linearTwoLayer } from './test-utils/linear-two-layer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('measureLossGap', () => {
  it('gives the hand-computed losses of the two-layer example', () => {
    // See compute-sensitivity.test.ts: L_m = −log σ(1) = 0.3132617, L_n = log 2 = 0.6931472.
    const model = linearTwoLayer(
      [
        [1, 0],
        [0, 1],
      ],
      [
        [1, 0],
        [0, 0],
      ],
    );
    const m = labeledData({ x: tf.tensor2d([[1, 0]]), y: [0], numClasses: 2 });
    const n = labeledData({ x: tf.tensor2d([[0, 1]]), y: [1], numClasses: 2 });
    const r = measureLossGap(model, m, n);
    expect(r.memberLoss).toBeCloseTo(0.3132617, 6);
    expect(r.nonMemberLoss).toBeCloseTo(0.6931472, 6);
    expect(r.lossGap).toBeCloseTo(0.3798855, 6);
    expect(r.memberAccuracy).toBe(1);
    expect(r.nonMemberAccuracy).toBe(0); // z_n = [0, 0]: argmax picks class 0, the label is 1
    model.dispose();
  });
});

describe('recorders', () => {
  it('record the loss gap, both Gini indices and the sensitivity at the chosen epochs, without leaks', async () => {
    const members = syntheticClassification({ size: 24, numFeatures: 4, numClasses: 3, seed: 31 });
    const nonMembers = syntheticClassification({ size: 24, numFeatures: 4, numClasses: 3, seed: 32 });
    const model = tinyMlp({ inputDim: 4, numClasses: 3, seed: 3 });
    const start = giniShifted(parameterValues(model));
    const gaps = lossGapRecorder({ members, nonMembers, every: 2 });
    const sens = sensitivityRecorder({ members, nonMembers, atStart: false, keepValuesOf: ['fc'] });
    const ginis = giniRecorder({ include: 'weights' });
    const optimizer = sgd({ lr: 0.1 });
    const before = tf.memory().numTensors;
    await train(model, members, { epochs: 3, batchSize: 8, optimizer, plugins: [gaps, ginis, sens], progressBar: false });
    expect(tf.memory().numTensors).toBe(before);
    optimizer.dispose();
    expect(gaps.records.map((r) => r.epochsDone)).toEqual([0, 2, 3]);
    const m = evaluate(model, members);
    const n = evaluate(model, nonMembers);
    expect(gaps.records[2]!.lossGap).toBeCloseTo(Math.abs(m.loss - n.loss), 6);
    expect(ginis.records.map((r) => r.epochsDone)).toEqual([0, 1, 2, 3]);
    const weights = parameterValues(model, { include: 'weights' });
    expect(weights.length).toBe(4 * 16 + 16 * 3);
    expect(parameterValues(model).length).toBe(4 * 16 + 16 + 16 * 3 + 3);
    expect(ginis.records[3]).toEqual({ epochsDone: 3, giniShifted: giniShifted(weights), giniAbs: giniAbs(weights) });
    expect(start).not.toBe(giniShifted(parameterValues(model)));
    // The last sensitivity record equals a direct measurement of the final model.
    expect(sens.records.map((r) => r.epochsDone)).toEqual([1, 2, 3]);
    const direct = computeSensitivity(model, members, nonMembers);
    const last = sens.records[2]!;
    expect(last.values['fc']).toEqual(direct.groups[1]!.gradientGap);
    expect(Object.keys(last.values)).toEqual(['fc']);
    expect(last.lossGap).toBeCloseTo(direct.lossGap, 6);
    expect(last.modules.map((m) => m.name)).toEqual(['layers.0', 'fc']);
    expect(last.modules[1]!.mean).toBeCloseTo(direct.groups[1]!.gradientGap.reduce((a, b) => a + b, 0) / 48, 6);
    model.dispose();
    members.dispose();
    nonMembers.dispose();
  });
});
