import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import {
  crossEntropy,
  deriveSeed,
  InvalidArgumentError,
  seededRandom,
  labeledData,
  sgd,
  ShapeMismatchError,
  train,
  type Classifier,
  type LabeledData,
  type TrainingPlugin,
} from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pastPlugin } from './past-plugin';
import { pastTune } from './past-tune';
import { linearTwoLayer, weightsOf } from './test-utils/linear-two-layer';
import { referenceSgdStep } from './test-utils/reference-sgd';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const members = syntheticClassification({ size: 40, numFeatures: 5, numClasses: 3, noise: 1.5, seed: 11 });
const nonMembers = syntheticClassification({ size: 30, numFeatures: 5, numClasses: 3, noise: 1.5, seed: 12 });
afterAll(() => {
  members.dispose();
  nonMembers.dispose();
});
const mlp = () => tinyMlp({ inputDim: 5, hidden: [8], numClasses: 3, seed: 5 });
const lossGrads = (model: Classifier, data: LabeledData, idx: Int32Array) =>
  tf.variableGrads(
    () =>
      crossEntropy(
        model.forward(data.gather(idx), { training: true }).logits,
        tf.tensor1d(
          Int32Array.from(idx, (i) => data.y[i]!),
          'int32',
        ),
      ),
    model.trainableVariables as tf.Variable[],
  ).grads;
const BATCH = 16;

/**
 * The explicit reference of the tuning loop, written out step by step: member batches in the order
 * `train` documents (`deriveSeed(seed, 'shuffle', epoch)`), non-member batches cycling through
 * shuffled passes (`deriveSeed(seed, 'nonMembers', pass)`, last batch of a pass smaller), and per
 * weight `g_m + λ·min(γ^α, clamp)·sign(w)` with γ computed here from scratch (`adaptive`) or γ ≡ 1;
 * then PyTorch SGD (lr 0.1, μ 0.9, wd 5e-4) with the cosine LR of each epoch.
 */
function referenceTuning(model: Classifier, epochs: number, penalty: { lambda: number; alpha: number; adaptive: boolean; clamp?: number }, seed = 0) {
  const state = new Map<string, tf.Tensor>();
  const weights = new Set(model.parameterGroups.map((g) => g.weight.name));
  const perPass = Math.ceil(nonMembers.size / BATCH);
  let step = 0;
  for (let e = 0; e < epochs; e++) {
    const lr = (0.1 * (1 + Math.cos((Math.PI * e) / epochs))) / 2;
    const order = seededRandom(deriveSeed(seed, 'shuffle', e)).permutation(members.size);
    for (let start = 0; start < members.size; start += BATCH, step++) {
      const pass = seededRandom(deriveSeed(seed, 'nonMembers', Math.floor(step / perPass))).permutation(nonMembers.size);
      const nStart = (step % perPass) * BATCH;
      tf.tidy(() => {
        const gn = lossGrads(model, nonMembers, pass.slice(nStart, nStart + BATCH));
        const gm = lossGrads(model, members, order.slice(start, start + BATCH));
        const adjusted: Record<string, tf.Tensor> = {};
        for (const v of model.trainableVariables) {
          if (!weights.has(v.name) || penalty.lambda === 0) {
            adjusted[v.name] = gm[v.name]!;
            continue;
          }
          let gammaPow: tf.Tensor = tf.onesLike(v);
          if (penalty.adaptive) {
            const gap = Array.from(tf.abs(tf.sub(gm[v.name]!, gn[v.name]!)).dataSync());
            const mean = Math.max(gap.reduce((a, b) => a + b, 0) / gap.length, 1.1920929e-7);
            gammaPow = tf.tensor(
              gap.map((g) => Math.min((g / mean) ** penalty.alpha, penalty.clamp ?? 1e4)),
              v.shape,
            );
          }
          adjusted[v.name] = tf.add(gm[v.name]!, tf.mul(tf.mul(gammaPow, penalty.lambda), tf.sign(v)));
        }
        referenceSgdStep(model.trainableVariables, adjusted, state, { lr, momentum: 0.9, weightDecay: 5e-4 });
        for (const t of state.values()) tf.keep(t);
      });
    }
  }
  tf.dispose([...state.values()]);
}

async function tuned(options: { lambda: number; alpha: number; adaptive?: boolean; clamp?: number }, seed = 0) {
  const model = mlp();
  await pastTune(model, { members, nonMembers, epochs: 3, batchSize: BATCH, lr: 0.1, seed, progressBar: false, ...options });
  return model;
}

function expectClose(a: Float32Array[], b: Float32Array[], digits = 5) {
  expect(a.length).toBe(b.length);
  for (const [k, arr] of a.entries()) for (let i = 0; i < arr.length; i++) expect(arr[i]).toBeCloseTo(b[k]![i]!, digits);
}

describe('pastPlugin', () => {
  it('one step on the hand-derived two-layer example gives the literal weights', async () => {
    // γ from compute-sensitivity.test.ts; λ = 0.1, α = 2, lr = 1, no momentum/decay:
    // W1[0,0] = 1 − (−0.2689414 + 0.1·1.3990216²) = 1.0732153; W1[1,0] has γ = 2.60 but sign(0) = 0 → stays 0.
    // W2[0,0] = 1 − (−0.2689414 + 0.1·0.6995108²) = 1.2200099; W2[0,1] = 0 − 0.2689414 (sign 0, no penalty).
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
    const optimizer = sgd({ lr: 1 });
    await train(model, m, {
      epochs: 1,
      batchSize: 1,
      optimizer,
      plugins: [pastPlugin({ nonMembers: n, lambda: 0.1, alpha: 2, batchSize: 1 })],
      progressBar: false,
    });
    const [w1, w2] = weightsOf(model);
    expect(Array.from(w1!)).toEqual([1.0732153, 0, 0, 1].map((v) => expect.closeTo(v, 5)));
    expect(Array.from(w2!)).toEqual([1.2200099, -0.2689414, 0, 0].map((v) => expect.closeTo(v, 5)));
    optimizer.dispose();
    model.dispose();
  });

  it('adaptive PAST (α = 2.5) equals the explicit reference computation', async () => {
    const model = await tuned({ lambda: 0.02, alpha: 2.5, clamp: 50 });
    const reference = mlp();
    referenceTuning(reference, 3, { lambda: 0.02, alpha: 2.5, adaptive: true, clamp: 50 });
    expectClose(weightsOf(model), weightsOf(reference));
    const plain = mlp();
    referenceTuning(plain, 3, { lambda: 0, alpha: 0, adaptive: false });
    // The penalty must have changed something (otherwise the comparison above proves nothing).
    expect(Math.max(...weightsOf(model).flatMap((w, k) => Array.from(w, (v, i) => Math.abs(v - weightsOf(plain)[k]![i]!))))).toBeGreaterThan(1e-3);
    for (const x of [model, reference, plain]) x.dispose();
  });

  it('α = 0 equals plain L1 tuning (adaptive: false), and both equal the explicit L1 reference', async () => {
    const alphaZero = await tuned({ lambda: 0.02, alpha: 0 });
    const l1 = await tuned({ lambda: 0.02, alpha: 2.5, adaptive: false });
    const reference = mlp();
    referenceTuning(reference, 3, { lambda: 0.02, alpha: 0, adaptive: false });
    expectClose(weightsOf(alphaZero), weightsOf(l1), 6);
    expectClose(weightsOf(l1), weightsOf(reference));
    for (const x of [alphaZero, l1, reference]) x.dispose();
  });

  it('λ = 0 equals plain SGD tuning', async () => {
    const zero = await tuned({ lambda: 0, alpha: 2.5 });
    const reference = mlp();
    referenceTuning(reference, 3, { lambda: 0, alpha: 0, adaptive: false });
    expectClose(weightsOf(zero), weightsOf(reference));
    zero.dispose();
    reference.dispose();
  });

  it('the L2 form adds λ·γ^α·2w', async () => {
    // Hand example with norm 'l2': W2[0,0] = 1 − (−0.2689414 + 0.1·0.6995108²·2·1) = 1.1710784.
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
    const optimizer = sgd({ lr: 1 });
    await train(model, m, {
      epochs: 1,
      batchSize: 1,
      optimizer,
      plugins: [pastPlugin({ nonMembers: n, lambda: 0.1, alpha: 2, norm: 'l2', batchSize: 1 })],
      progressBar: false,
    });
    expect(weightsOf(model)[1]![0]).toBeCloseTo(1.1710784, 5);
    optimizer.dispose();
    model.dispose();
  });

  it('is reproducible: same seed → identical weights, another seed → different ones (mini-batches)', async () => {
    const run = async (seed: number) => {
      const model = mlp();
      await pastTune(model, { members, nonMembers, epochs: 2, batchSize: 8, lambda: 0.01, alpha: 2.5, seed, progressBar: false });
      const w = weightsOf(model);
      model.dispose();
      return w;
    };
    const a = await run(1);
    expect(await run(1)).toEqual(a);
    expect(await run(2)).not.toEqual(a);
  });

  it('resuming an aborted tuning run from its checkpoint gives the uninterrupted weights', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'past-resume-'));
    const options = { members, nonMembers, epochs: 3, batchSize: 16, lambda: 0.01, alpha: 2.5, seed: 9, progressBar: false as const };
    const full = mlp();
    await pastTune(full, options);
    const controller = new AbortController();
    const stop: TrainingPlugin = { name: 'stop', onEpochEnd: ({ epoch }) => void (epoch === 0 && controller.abort()) };
    const resumed = mlp();
    const checkpoint = { path: join(dir, 'past.ckpt') };
    await expect(pastTune(resumed, { ...options, checkpoint, signal: controller.signal, plugins: [stop] })).rejects.toThrow('aborted');
    await pastTune(resumed, { ...options, checkpoint, resume: true });
    expect(weightsOf(resumed)).toEqual(weightsOf(full));
    full.dispose();
    resumed.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaks no tensor over a tuning epoch', async () => {
    const model = mlp();
    const before = tf.memory().numTensors;
    await pastTune(model, { members, nonMembers, epochs: 1, batchSize: 8, microBatchSize: 3, lambda: 0.01, alpha: 2.5, progressBar: false });
    await pastTune(model, { members, epochs: 1, batchSize: 8, lambda: 0.01, alpha: 0, adaptive: false, norm: 'l2', progressBar: false });
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });

  it('validates its options with clear errors', async () => {
    expect(() => pastPlugin({ lambda: 1e-3, alpha: 2.5 })).toThrow(
      'pastPlugin: nonMembers must be a non-empty LabeledData when adaptive is true, got undefined',
    );
    expect(() => pastPlugin({ nonMembers, lambda: -1, alpha: 2.5 })).toThrow('pastPlugin: lambda must be a number ≥ 0, got -1');
    expect(() => pastPlugin({ nonMembers, lambda: 1, alpha: Number.NaN })).toThrow(InvalidArgumentError);
    expect(() => pastPlugin({ nonMembers, lambda: 1, alpha: 1, clamp: 0 })).toThrow('pastPlugin: clamp must be a number > 0, got 0');
    expect(() => pastPlugin({ nonMembers, lambda: 1, alpha: 1, norm: 'l3' as 'l1' })).toThrow('pastPlugin: norm must be one of "l1", "l2", got "l3"');
    expect(() => pastPlugin({ nonMembers, lambda: 1, alpha: 1, batchSize: 0 })).toThrow('pastPlugin: batchSize must be an integer ≥ 1, got 0');
    const model = mlp();
    await expect(pastTune(model, { members, nonMembers, epochs: 0, lambda: 1, alpha: 1 })).rejects.toThrow('pastTune: epochs must be an integer ≥ 1, got 0');
    const wrong = syntheticClassification({ size: 10, numFeatures: 5, numClasses: 4, seed: 1 });
    await expect(pastTune(model, { members, nonMembers: wrong, epochs: 1, lambda: 1, alpha: 1, progressBar: false })).rejects.toSatisfy((e: unknown) =>
      ShapeMismatchError.isInstance(e),
    );
    wrong.dispose();
    // A phase-1 optimizer that is still alive does not clash with the fresh tuning optimizer.
    const phase1 = sgd({ lr: 0.1, momentum: 0.9 });
    await train(model, members, { epochs: 1, batchSize: 20, optimizer: phase1, progressBar: false });
    await expect(pastTune(model, { members, nonMembers, epochs: 1, lambda: 1, alpha: 1, progressBar: false })).resolves.toMatchObject({ startEpoch: 0 });
    phase1.dispose();
    model.dispose();
  });
});
