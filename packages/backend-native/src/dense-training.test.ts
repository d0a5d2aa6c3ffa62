// Whole trainings of the dense networks (@mia/models' MLP and attack models) on the fused kernels
// (denseBias, cross-entropy, GatherV2): the kernel calls of a step, the same bits as the separate
// kernels, and nothing left behind.
import {
  DENSE_BIAS,
  DENSE_BIAS_GRAD_BIAS,
  DENSE_BIAS_GRAD_INPUT,
  DENSE_BIAS_GRAD_WEIGHT,
  SOFTMAX_CROSS_ENTROPY,
  SOFTMAX_CROSS_ENTROPY_GRAD,
  adam,
  labeledData,
  sgd,
  train,
  type Optimizer,
} from '@mia/core';
import { createAttackModel, createMlp, type ModelClassifier } from '@mia/models';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { nativeKernelStats, resetNativeKernelStats } from './kernel-stats';
import { loadNativeAddon } from './load-native-addon';
import type { NativeAddon } from './native-addon';
import { registerNativeKernels, unregisterNativeKernels } from './register-native-kernels';
import { describeNative } from './test-utils/native-available';
import { useNativeTraining } from './use-native-training';

const fusedKernels = [DENSE_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT, DENSE_BIAS_GRAD_BIAS, SOFTMAX_CROSS_ENTROPY, SOFTMAX_CROSS_ENTROPY_GRAD];

interface Backend {
  numDataIds(): number;
  wasm: { HEAPU8: Uint8Array };
}

interface Setup {
  model: () => ModelClassifier;
  optimizer: () => Optimizer;
  inputDim: number;
  numClasses: number;
}

const setups: Record<string, Setup> = {
  // The Purchase MLP's layers (600-1024-512-256-128-100 in the papers), narrower: tanh, SGD with momentum and weight decay.
  mlp: {
    model: () => createMlp({ inputDim: 60, hidden: [64, 32, 16, 8], numClasses: 10, seed: 3 }),
    optimizer: () => sgd({ lr: 0.1, momentum: 0.9, weightDecay: 5e-4 }),
    inputDim: 60,
    numClasses: 10,
  },
  // The main job's attack model (ReLU, Adam) and CRL's (dropout, a linear hidden layer).
  'nn-mlh': { model: () => createAttackModel('nn-mlh', { inputDim: 10, seed: 4 }), optimizer: () => adam({ lr: 1e-3 }), inputDim: 10, numClasses: 2 },
  'nn-crl': {
    model: () => createAttackModel('nn-crl', { inputDim: 20, seed: 5 }),
    optimizer: () => sgd({ lr: 0.01, momentum: 0.9 }),
    inputDim: 20,
    numClasses: 2,
  },
};

/** Trains a fresh model for 2 epochs of 5 batches; returns its weights (copied out) and the kernel calls per step. */
async function trained(name: string): Promise<{ weights: Float32Array[]; callsPerStep: number }> {
  const s = setups[name]!;
  const model = s.model();
  const x = tf.randomUniform([80, s.inputDim], 0, 1, 'float32', 6);
  const data = labeledData({ x, y: Int32Array.from({ length: 80 }, (_, i) => (i * 7) % s.numClasses), numClasses: s.numClasses });
  const optimizer = s.optimizer();
  const engine = tf.engine() as unknown as { runKernelFunc(p: unknown): unknown };
  const original = engine.runKernelFunc.bind(engine);
  let calls = 0;
  engine.runKernelFunc = (p) => {
    calls++;
    return original(p);
  };
  try {
    await train(model, data, { epochs: 2, batchSize: 16, optimizer, seed: 8, progressBar: false });
  } finally {
    engine.runKernelFunc = original;
  }
  const weights = model.trainableVariables.map((v) => Float32Array.from(v.dataSync()));
  optimizer.dispose();
  model.dispose();
  x.dispose();
  return { weights, callsPerStep: calls / 10 };
}

/** Runs `fn` with the fused kernels unregistered (every other native kernel stays): the separate kernels they replace. */
async function withoutFusion<T>(fn: () => Promise<T>): Promise<T> {
  for (const k of fusedKernels) tf.unregisterKernel(k, 'wasm');
  try {
    return await fn();
  } finally {
    await useNativeTraining({ threads: 2 });
  }
}

const sameBits = (a: Float32Array[], b: Float32Array[]): boolean => a.length === b.length && a.every((w, i) => w.every((v, j) => Object.is(v, b[i]![j])));

describeNative('dense networks trained on the fused native kernels', () => {
  beforeAll(async () => {
    await useNativeTraining({ threads: 2 });
  });
  afterAll(() => {
    unregisterNativeKernels();
  });

  it('an MLP step runs every dense layer and the loss as one kernel each way, and no separate matMul, add, tanh or softmax', async () => {
    resetNativeKernelStats();
    const { callsPerStep } = await trained('mlp');
    const stats = nativeKernelStats();
    const perStep = (k: string) => (stats[k]?.native ?? 0) / 10;
    // 5 dense layers; the first layer's input gradient is not computed.
    expect([DENSE_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT, DENSE_BIAS_GRAD_BIAS].map(perStep)).toEqual([5, 4, 5, 5]);
    expect([SOFTMAX_CROSS_ENTROPY, SOFTMAX_CROSS_ENTROPY_GRAD, 'GatherV2'].map(perStep)).toEqual([1, 1, 1]);
    for (const k of ['BatchMatMul', 'Add', 'Tanh', 'MiaTanhGrad', 'Exp', 'Max']) expect(stats[k], k).toBeUndefined();
    for (const k of [...fusedKernels, 'GatherV2']) expect(stats[k]?.fallback, `${k} fell back: ${JSON.stringify(stats[k]?.reasons)}`).toBe(0);
    // 56 kernel calls per step of train() here (10 variables; the batch, the accuracy count and the
    // clones tfjs saves for the backward pass included); the separate kernels take 145.
    expect(callsPerStep).toBeLessThanOrEqual(60);
  }, 300_000);

  for (const name of Object.keys(setups)) {
    it(`${name}: two trainings with one seed give the same bits, and the same bits as the separate kernels`, async () => {
      const fused = await trained(name);
      const again = await trained(name);
      const separate = await withoutFusion(() => trained(name));
      expect(fused.weights.length).toBeGreaterThan(0);
      expect(sameBits(fused.weights, again.weights), 'same seed, same bits').toBe(true);
      expect(sameBits(fused.weights, separate.weights), 'fused = separate kernels').toBe(true);
      expect(separate.callsPerStep, 'the separate kernels take more calls').toBeGreaterThan(1.5 * fused.callsPerStep);
    }, 300_000);
  }

  it('an addon built before these kernels keeps dense layers, the loss and gathering on their tfjs ops, with the same bits', async () => {
    const fused = await trained('mlp');
    const stale = { ...loadNativeAddon() } as Record<string, unknown>;
    for (const f of ['denseForward', 'denseGradInput', 'denseGradWeight', 'denseGradBias', 'softmaxCrossEntropy', 'softmaxCrossEntropyGrad', 'gather'])
      delete stale[f];
    unregisterNativeKernels();
    try {
      const kernels = registerNativeKernels(stale as unknown as NativeAddon);
      expect(kernels).not.toContain(DENSE_BIAS);
      expect(kernels).not.toContain('GatherV2');
      expect(kernels).toContain('BatchMatMul');
      resetNativeKernelStats();
      const separate = await trained('mlp');
      expect(nativeKernelStats()[DENSE_BIAS]).toBeUndefined();
      expect(nativeKernelStats()['BatchMatMul']?.native).toBeGreaterThan(0);
      expect(sameBits(fused.weights, separate.weights)).toBe(true);
    } finally {
      unregisterNativeKernels();
      await useNativeTraining({ threads: 2 });
    }
  }, 300_000);

  it('20 training steps of the MLP leave no tensor, data id or heap growth behind', async () => {
    const backend = tf.backend() as unknown as Backend;
    const tensors = tf.memory().numTensors;
    const ids = backend.numDataIds();
    const model = setups['mlp']!.model();
    const x = tf.randomUniform([160, 60], 0, 1, 'float32', 2);
    const data = labeledData({ x, y: Int32Array.from({ length: 160 }, (_, i) => i % 10), numClasses: 10 });
    const optimizer = sgd({ lr: 0.05, momentum: 0.9 });
    await train(model, data, { epochs: 1, batchSize: 16, optimizer, seed: 3, progressBar: false });
    const heap = backend.wasm.HEAPU8.buffer.byteLength;
    const mid = { tensors: tf.memory().numTensors, ids: backend.numDataIds() };
    await train(model, data, { epochs: 2, batchSize: 16, optimizer, seed: 4, progressBar: false });
    expect(tf.memory().numTensors).toBe(mid.tensors);
    expect(backend.numDataIds()).toBe(mid.ids);
    expect(backend.wasm.HEAPU8.buffer.byteLength).toBe(heap);
    optimizer.dispose();
    model.dispose();
    x.dispose();
    expect(tf.memory().numTensors).toBe(tensors);
    expect(backend.numDataIds()).toBe(ids);
  }, 300_000);
});
