import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { labeledData, sgd, train, type Classifier, type TrainingPlugin } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { samPlugin, sharpMinimaPlugin, sharpRegPlugin } from './sam-plugin';
import { bnLikeClassifier, quadraticLossPlugin } from './test-utils/fixtures';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const xValues = [
  [1, 2],
  [3, 0],
  [-1, 1],
  [1, 1],
];
const data = () => {
  const x = tf.tensor2d(xValues);
  return Object.assign(labeledData({ x, y: Int32Array.from([0, 1, 0, 1]), numClasses: 2 }), { dispose: () => x.dispose() });
};

async function oneStep(model: Classifier, plugin: TrainingPlugin, extra: TrainingPlugin[] = []) {
  const d = data();
  const optimizer = sgd({ lr: 0.1 });
  await train(model, d, { epochs: 1, batchSize: 4, optimizer, plugins: [...extra, plugin], shuffle: false, progressBar: false });
  optimizer.dispose();
  d.dispose();
  return Array.from(model.trainableVariables[0]!.dataSync());
}

// Hand derivation for L(w) = ½wᵀHw, H = [[3, 1], [1, 2]], w₀ = [1, −1], ρ = 0.1, lr = 0.1:
// g = Hw₀ = [2, −1], ‖g‖ = √5, ε̂ = 0.1·g/√5, Hε̂ = (0.1/√5)·[5, 0] = [0.2236068, 0],
// g_adv = g + Hε̂ = [2.2236068, −1].
describe('one SAM-family step on a quadratic with a known Hessian', () => {
  it('SAM: w₁ = w₀ − lr·g_adv = [0.77763932, −0.9]', async () => {
    const model = bnLikeClassifier();
    const w = await oneStep(model, samPlugin({ rho: 0.1 }), [quadraticLossPlugin(model)]);
    expect(w[0]).toBeCloseTo(0.77763932, 6);
    expect(w[1]).toBeCloseTo(-0.9, 6);
    model.dispose();
  });
  it('SharpReg (λ 1.5, ξ 0.3): d = 2.2·g − 1.5·g_adv = [1.0645898, −0.7]', async () => {
    const model = bnLikeClassifier();
    const w = await oneStep(model, sharpRegPlugin({ rho: 0.1, lambda: 1.5, xi: 0.3 }), [quadraticLossPlugin(model)]);
    expect(w[0]).toBeCloseTo(1 - 0.1 * 1.0645898, 6);
    expect(w[1]).toBeCloseTo(-1 + 0.1 * 0.7, 6);
    model.dispose();
  });
  it('SharpReg β form (β = 0.5): d = g − 0.5·g_adv = [0.8881966, −0.5]', async () => {
    const model = bnLikeClassifier();
    const w = await oneStep(model, sharpRegPlugin({ rho: 0.1, beta: 0.5 }), [quadraticLossPlugin(model)]);
    expect(w[0]).toBeCloseTo(1 - 0.1 * 0.8881966, 6);
    expect(w[1]).toBeCloseTo(-1 + 0.1 * 0.5, 6);
    model.dispose();
  });
  it('sharp minima (λ = 1): d = 2·g − g_adv = [1.7763932, −1]', async () => {
    const model = bnLikeClassifier();
    const w = await oneStep(model, sharpMinimaPlugin({ rho: 0.1, lambda: 1 }), [quadraticLossPlugin(model)]);
    expect(w[0]).toBeCloseTo(1 - 0.1 * 1.7763932, 6);
    expect(w[1]).toBeCloseTo(-1 + 0.1, 6);
    model.dispose();
  });
});

describe('BN statistics and the second pass', () => {
  // One update from 0 with momentum 0.1: runningMean = 0.1·mean(x) = 0.1·[1, 1]
  it('a classifier that honours updateStatistics: false keeps first-pass statistics', async () => {
    const model = bnLikeClassifier();
    await oneStep(model, samPlugin({ rho: 0.1, restoreStatistics: false }));
    expect(Array.from(model.runningMean.dataSync()).map((v) => +v.toFixed(6))).toEqual([0.1, 0.1]);
    model.dispose();
  });
  it('a classifier that ignores the flag is restored from the snapshot (restoreStatistics default)', async () => {
    const model = bnLikeClassifier({ ignoresFlag: true });
    await oneStep(model, samPlugin({ rho: 0.1 }));
    expect(Array.from(model.runningMean.dataSync()).map((v) => +v.toFixed(6))).toEqual([0.1, 0.1]);
    model.dispose();
  });
  it('without the snapshot, such a classifier would take two updates (the check can fail)', async () => {
    const model = bnLikeClassifier({ ignoresFlag: true });
    await oneStep(model, samPlugin({ rho: 0.1, restoreStatistics: false }));
    // 0.9·0.1 + 0.1·1 = 0.19
    expect(Array.from(model.runningMean.dataSync()).map((v) => +v.toFixed(6))).toEqual([0.19, 0.19]);
    model.dispose();
  });
});

describe('SharpReg with λ = 0, ξ = 0 is plain SGD', () => {
  it('gives bit-identical weights to training without the plugin (MLP, momentum, wd)', async () => {
    const d = syntheticClassification({ size: 48, numFeatures: 5, numClasses: 3, seed: 4 });
    const run = async (plugins: TrainingPlugin[]) => {
      const model = tinyMlp({ inputDim: 5, numClasses: 3, seed: 2 });
      const optimizer = sgd({ lr: 0.1, momentum: 0.9, nesterov: true, weightDecay: 5e-4 });
      await train(model, d, { epochs: 2, batchSize: 16, optimizer, plugins, seed: 3, progressBar: false });
      const w = model.trainableVariables.flatMap((v) => Array.from(v.dataSync()));
      optimizer.dispose();
      model.dispose();
      return w;
    };
    const before = tf.memory().numTensors;
    const plain = await run([]);
    const sharp = await run([sharpRegPlugin({ rho: 0.05, lambda: 0, xi: 0 })]);
    expect(sharp).toEqual(plain);
    const sam = await run([samPlugin({ rho: 0.05 })]);
    expect(sam).not.toEqual(plain);
    expect(await run([samPlugin({ rho: 0.05 })])).toEqual(sam); // deterministic for a seed
    expect(tf.memory().numTensors).toBe(before);
    d.dispose();
  });
});

describe('validation', () => {
  it('rejects bad hyperparameters with clear messages', () => {
    expect(() => samPlugin({ rho: 0 })).toThrow(/samPlugin: rho must be a number > 0, got 0/);
    expect(() => sharpRegPlugin({ rho: 0.01, lambda: 1, xi: 3 })).toThrow(/1 \+ lambda − xi must be positive/);
    expect(() => sharpRegPlugin({ rho: 0.01, lambda: 1, xi: 0.1, beta: 0.5 } as never)).toThrow(/either \{lambda, xi\} or beta/);
    expect(() => sharpMinimaPlugin({ rho: 0.01, lambda: -1 })).toThrow(/lambda must be a number in \[0, Infinity\], got -1/);
  });
});
