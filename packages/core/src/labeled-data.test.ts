import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidDatasetError, ShapeMismatchError } from './errors';
import { labeledData, subsetData } from './labeled-data';
import { evaluate, predictLogits, predictOutputs } from './predict';
import { syntheticClassification, tinyMlp } from './testing/index';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('labeledData / subsetData', () => {
  it('gathers float32 batches in index order and subsets compose', () => {
    const x = tf.tensor2d(
      [
        [0, 0],
        [1, 1],
        [2, 2],
        [3, 3],
      ],
      [4, 2],
      'int32',
    );
    const data = labeledData({ x, y: [0, 1, 0, 1], numClasses: 2 });
    const before = tf.memory().numTensors;
    const batch = data.gather([3, 1]);
    expect(batch.dtype).toBe('float32');
    expect(Array.from(batch.dataSync())).toEqual([3, 3, 1, 1]);
    batch.dispose();
    const sub = subsetData(data, [2, 3]);
    expect(Array.from(sub.y)).toEqual([0, 1]);
    const b2 = sub.gather([1]);
    expect(Array.from(b2.dataSync())).toEqual([3, 3]);
    b2.dispose();
    expect(tf.memory().numTensors).toBe(before);
    x.dispose();
  });

  it('rejects mismatched lengths, labels out of range and bad subset indices', () => {
    const x = tf.zeros([3, 2]);
    expect(() => labeledData({ x, y: [0, 1], numClasses: 2 })).toThrow(/labeledData: y must have one label per example \(3\), got 2 labels/);
    expect(() => labeledData({ x, y: [0, 1], numClasses: 2 })).toSatisfy(() => true);
    try {
      labeledData({ x, y: [0, 1], numClasses: 2 });
    } catch (e) {
      expect(ShapeMismatchError.isInstance(e)).toBe(true);
    }
    expect(() => labeledData({ x, y: [0, 2, 1], numClasses: 2 })).toThrow(/y\[1\] must be an integer label in \[0, 1\], got 2/);
    try {
      labeledData({ x, y: [0, 0.5, 1], numClasses: 2 });
    } catch (e) {
      expect(InvalidDatasetError.isInstance(e)).toBe(true);
    }
    const data = labeledData({ x, y: [0, 1, 1], numClasses: 2 });
    expect(() => subsetData(data, [0, 3])).toThrow(/subsetData: indices\[1\] must be in \[0, 2\], got 3/);
    try {
      subsetData(data, [-1]);
    } catch (e) {
      expect(InvalidArgumentError.isInstance(e)).toBe(true);
    }
    x.dispose();
  });
});

describe('predictLogits / evaluate', () => {
  it('batches give the same logits as one forward pass, and nothing leaks', () => {
    const data = syntheticClassification({ size: 37, numFeatures: 5, numClasses: 3, seed: 1 });
    const model = tinyMlp({ inputDim: 5, numClasses: 3, seed: 2 });
    const before = tf.memory().numTensors;
    const batched = predictLogits(model, data, { batchSize: 8 });
    const all = data.gather(Int32Array.from({ length: 37 }, (_, i) => i));
    const direct = model.forward(all, { training: false });
    expect(batched.shape).toEqual([37, 3]);
    const a = batched.dataSync();
    const b = direct.logits.dataSync();
    for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i]!, 5);
    tf.dispose([batched, all, direct.logits, direct.features]);
    const outs = predictOutputs(model, data, { indices: [0, 5] });
    expect(outs.features.shape).toEqual([2, 16]);
    tf.dispose([outs.logits, outs.features]);
    const ev = evaluate(model, data, { batchSize: 10 });
    expect(ev.losses).toHaveLength(37);
    expect(ev.accuracy).toBeCloseTo(ev.correct.reduce((s, v) => s + v, 0) / 37, 10);
    expect(ev.loss).toBeCloseTo(ev.losses.reduce((s, v) => s + v, 0) / 37, 5);
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
    data.dispose();
  });
});
