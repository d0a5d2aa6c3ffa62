import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { evaluate, labeledData, seededRandom, sgd, subsetData, train } from '@mia/core';
import { tinyMlp } from '@mia/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { estimateInfluence } from './estimate-influence';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('estimateInfluence with a scripted trainModel', () => {
  // Train scores: 1 for points in the subset, 0.5 otherwise → mem = 0.5 for every point.
  // Test point 0 is right iff train point 0 was in the subset → infl(0 → test 0) = 1, 0 elsewhere.
  const scripted = (subset: Int32Array) => {
    const inSet = new Set(subset);
    return {
      train: Array.from({ length: 6 }, (_, i) => (inSet.has(i) ? 1 : 0.5)),
      test: [inSet.has(0) ? 1 : 0, 0.3],
    };
  };
  it('recovers memorisation and influence exactly', async () => {
    const est = await estimateInfluence({ numTrain: 6, numTest: 2, trainModel: scripted, numModels: 30, subsetFraction: 0.5, seed: 1 });
    for (const m of est.memorization) expect(m).toBeCloseTo(0.5, 12);
    expect(est.influence[0]).toBeCloseTo(1, 12); // test 0, train 0
    for (let i = 1; i < 6; i++) expect(Math.abs(est.influence[i]!)).toBeLessThan(0.6); // test 0, train i: sampling correlation only
    for (let i = 0; i < 6; i++) expect(est.influence[6 + i]).toBeCloseTo(0, 12); // test 1 is constant
    expect(est.inCounts.reduce((a, b) => a + b, 0)).toBe(30 * 3);
  });
  it('is deterministic for a seed and changes with it', async () => {
    const a = await estimateInfluence({ numTrain: 6, numTest: 2, trainModel: scripted, numModels: 5, seed: 7 });
    const b = await estimateInfluence({ numTrain: 6, numTest: 2, trainModel: scripted, numModels: 5, seed: 7 });
    const c = await estimateInfluence({ numTrain: 6, numTest: 2, trainModel: scripted, numModels: 5, seed: 8 });
    expect(b.subsets).toEqual(a.subsets);
    expect(c.subsets).not.toEqual(a.subsets);
  });
  it('rejects bad options and wrong output lengths', async () => {
    await expect(estimateInfluence({ numTrain: 6, trainModel: scripted, subsetFraction: 1 })).rejects.toThrow(
      /subsetFraction·numTrain must round to 1..numTrain−1, got 6/,
    );
    await expect(estimateInfluence({ numTrain: 5, numTest: 2, trainModel: scripted, numModels: 2 })).rejects.toThrow(
      /must return 5 train and 2 test scores, got 6 and 2 \(model 0\)/,
    );
  });
});

describe('estimateInfluence with real MLPs (tiny scale)', () => {
  it('finds the mislabelled training points as the most memorised', async () => {
    // Two classes in 32-D (prototypes ±0.5, noise 1), 24 training points; points 0–2 get the wrong
    // label, so a model gets them "right" only if it saw (memorised) them.
    const n = 24;
    const dim = 32;
    const r = seededRandom(11);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < n; i++) {
      const c = i % 2;
      for (let k = 0; k < dim; k++) xs.push((c === 0 ? -0.5 : 0.5) + r.normal());
      ys.push(i < 3 ? 1 - c : c);
    }
    const x = tf.tensor2d(xs, [n, dim]);
    const data = labeledData({ x, y: ys, numClasses: 2 });
    const before = tf.memory().numTensors;
    const est = await estimateInfluence({
      numTrain: n,
      numModels: 12,
      subsetFraction: 0.5,
      seed: 3,
      trainModel: async (subset, seed) => {
        const model = tinyMlp({ inputDim: dim, hidden: [32], numClasses: 2, seed });
        const optimizer = sgd({ lr: 0.1, momentum: 0.9 });
        await train(model, subsetData(data, subset), { epochs: 10, batchSize: 4, optimizer, seed, progressBar: false });
        const { correct } = evaluate(model, data);
        optimizer.dispose();
        model.dispose();
        return { train: correct };
      },
    });
    expect(tf.memory().numTensors).toBe(before);
    const noisy = [0, 1, 2].map((i) => est.memorization[i]!).filter(Number.isFinite);
    const clean = Array.from(est.memorization.slice(3)).filter(Number.isFinite);
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    expect(mean(noisy)).toBeGreaterThan(0.5);
    expect(mean(clean)).toBeLessThan(0.2);
    x.dispose();
  });
});
