import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { crossEntropyPerExample, InvalidArgumentError } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertInputCanaries } from './input-canaries';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('insertInputCanaries', () => {
  it('appends exactly the included canaries, and gather returns data and canary rows in the order asked', () => {
    const data = syntheticClassification({ size: 30, numFeatures: 4, numClasses: 3, seed: 1 });
    const pool = syntheticClassification({ size: 50, numFeatures: 4, numClasses: 3, seed: 2 });
    const { data: augmented, canaries } = insertInputCanaries(data, { count: 20, seed: 3, pool });
    const inclusion = canaries.inclusion();
    const inIds = Array.from(inclusion).flatMap((v, i) => (v === 1 ? [i] : []));
    expect(augmented.size).toBe(30 + inIds.length);
    expect(Array.from(augmented.y.subarray(0, 30))).toEqual(Array.from(data.y));
    expect(Array.from(augmented.y.subarray(30))).toEqual(inIds.map((i) => canaries.records.y[i]!));
    const ask = [31, 2, 30 + inIds.length - 1, 0, 30];
    const got = augmented.gather(ask);
    const want = tf.concat([
      canaries.records.gather([inIds[1]!]),
      data.gather([2]),
      canaries.records.gather([inIds[inIds.length - 1]!]),
      data.gather([0]),
      canaries.records.gather([inIds[0]!]),
    ]);
    expect(Array.from(got.dataSync())).toEqual(Array.from(want.dataSync()));
    tf.dispose([got, want]);
    canaries.dispose();
    data.dispose();
    pool.dispose();
  });

  it("'mislabeled' canaries are pool records with a wrong label; 'random' ones are uniform inputs in [0, 1)", () => {
    const data = syntheticClassification({ size: 10, numFeatures: 4, numClasses: 5, seed: 1 });
    const pool = syntheticClassification({ size: 200, numFeatures: 4, numClasses: 5, seed: 2 });
    const { canaries } = insertInputCanaries(data, { count: 100, seed: 3, pool });
    const poolX = pool.gather(Int32Array.from({ length: 200 }, (_, i) => i));
    const poolRows = poolX.arraySync() as number[][];
    const records = canaries.records.gather(Int32Array.from({ length: 100 }, (_, i) => i));
    (records.arraySync() as number[][]).forEach((row, i) => {
      const source = poolRows.findIndex((p) => p.every((v, j) => v === row[j]));
      expect(source).toBeGreaterThanOrEqual(0);
      expect(canaries.records.y[i]).not.toBe(pool.y[source]);
    });
    const { canaries: random } = insertInputCanaries(data, { count: 50, seed: 3 });
    expect(random.kind).toBe('random');
    const values = random.records.gather(Int32Array.from({ length: 50 }, (_, i) => i));
    expect(Array.from(values.dataSync()).every((v) => v >= 0 && v < 1)).toBe(true);
    tf.dispose([poolX, records, values]);
    canaries.dispose();
    random.dispose();
    data.dispose();
    pool.dispose();
  });

  it('scores are minus the cross-entropy of each canary under the model, and nothing leaks', () => {
    const data = syntheticClassification({ size: 10, numFeatures: 4, numClasses: 3, seed: 1 });
    const model = tinyMlp({ inputDim: 4, hidden: [5], numClasses: 3, seed: 2 });
    const tensors = tf.memory().numTensors;
    const { canaries } = insertInputCanaries(data, { count: 12, seed: 4 });
    const scores = canaries.scores(model);
    const want = tf.tidy(() => {
      const x = canaries.records.gather(Int32Array.from({ length: 12 }, (_, i) => i));
      return crossEntropyPerExample(model.forward(x, { training: false }).logits, tf.tensor1d(canaries.records.y, 'int32')).dataSync();
    });
    scores.forEach((s, i) => expect(s).toBeCloseTo(-want[i]!, 5));
    canaries.dispose();
    expect(tf.memory().numTensors).toBe(tensors);
    model.dispose();
    data.dispose();
  });

  it('is deterministic for a seed', () => {
    const data = syntheticClassification({ size: 10, numFeatures: 4, numClasses: 3, seed: 1 });
    const draw = (seed: number) => {
      const { canaries, data: augmented } = insertInputCanaries(data, { count: 64, seed });
      const x = canaries.records.gather(Int32Array.from({ length: 64 }, (_, i) => i));
      const out = { inclusion: Array.from(canaries.inclusion()), y: Array.from(augmented.y), x: Array.from(x.dataSync()) };
      x.dispose();
      canaries.dispose();
      return out;
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7).inclusion).not.toEqual(draw(8).inclusion);
    data.dispose();
  });

  it('rejects a missing, small or mismatched pool and bad options', () => {
    const data = syntheticClassification({ size: 10, numFeatures: 4, numClasses: 3, seed: 1 });
    const small = syntheticClassification({ size: 5, numFeatures: 4, numClasses: 3, seed: 2 });
    const other = syntheticClassification({ size: 50, numFeatures: 3, numClasses: 3, seed: 2 });
    expect(() => insertInputCanaries(data, { count: 10, seed: 1, kind: 'mislabeled' })).toThrow(
      "insertInputCanaries: pool must be a LabeledData with kind 'mislabeled', got undefined",
    );
    expect(() => insertInputCanaries(data, { count: 10, seed: 1, pool: small })).toThrow(
      'insertInputCanaries: pool must hold at least count = 10 records, got 5',
    );
    expect(() => insertInputCanaries(data, { count: 10, seed: 1, pool: other })).toThrow('insertInputCanaries: pool must have the inputs of data (4), got 3');
    expect(() => insertInputCanaries(data, { count: 0, seed: 1 })).toThrow('insertInputCanaries: count must be a positive integer, got 0');
    expect(() => insertInputCanaries({} as never, { count: 1, seed: 1 })).toThrow(InvalidArgumentError);
    [data, small, other].forEach((d) => d.dispose());
  });
});
