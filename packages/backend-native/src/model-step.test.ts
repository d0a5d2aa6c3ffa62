// Whole training steps of the papers' conv nets (@mia/models) on the native kernels: gradients agree
// with the wasm path, 20 steps leak nothing, and one seed with one thread count gives the same bits.
import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { BATCH_NORM_RELU_TRAINING, CONV2D_BIAS, SGD_UPDATE, labeledData, sgd, train } from '@mia/core';
import { createModel, type ModelClassifier } from '@mia/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeKernelStats, resetNativeKernelStats } from './kernel-stats';
import { unregisterNativeKernels } from './register-native-kernels';
import { describeNative } from './test-utils/native-available';
import { useNativeTraining } from './use-native-training';

interface Backend {
  numDataIds(): number;
  wasm: { HEAPU8: Uint8Array };
}

function batch(n: number, shape: number[], seed: number): { x: tf.Tensor; y: tf.Tensor } {
  const x = tf.randomNormal([n, ...shape], 0, 1, 'float32', seed);
  const y = tf.oneHot(
    tf.tensor1d(
      Array.from({ length: n }, (_, i) => (i * 7) % 10),
      'int32',
    ),
    10,
  );
  return { x, y };
}

/** The gradient of the cross-entropy of one batch, per trainable variable (values copied out). */
function gradients(model: ModelClassifier, x: tf.Tensor, y: tf.Tensor): Map<string, Float32Array> {
  const vars = model.trainableVariables as tf.Variable[];
  const { value, grads } = tf.variableGrads(
    () => tf.losses.softmaxCrossEntropy(y, model.forward(x, { training: true, updateStatistics: false }).logits) as tf.Scalar,
    vars,
  );
  const out = new Map(vars.map((v) => [v.name, Float32Array.from(grads[v.name]!.dataSync())]));
  tf.dispose([value, ...Object.values(grads)]);
  return out;
}

const maxAbs = (v: Float32Array): number => v.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

/**
 * Largest |a − b| over a tensor, relative to the largest |b| of that tensor, or to `floor` when that
 * is larger: a conv bias followed by batch norm has a true gradient of 0, so both engines return
 * rounding noise there and only an absolute comparison means anything.
 */
function relativeError(a: Float32Array, b: Float32Array, floor: number): number {
  let worst = 0;
  for (let i = 0; i < b.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst / Math.max(maxAbs(b), floor);
}

describeNative('whole training steps on the native kernels', () => {
  beforeAll(async () => {
    await useNativeTraining({ threads: 2 });
  });
  afterAll(() => {
    unregisterNativeKernels();
  });

  // Tolerances: per tensor, the largest difference relative to the tensor's largest gradient (at
  // least 1e-2 of the model's largest gradient). Each
  // native kernel agrees with tfjs's cpu backend to ≤ 1e-4 (kernel tests); through a whole
  // network the two engines sum in different orders, and at these small batches no ReLU or max-pool
  // decision flips (at large batches one flip moves a gradient by ~1e-2; see the package README).
  for (const [name, options, n, tolerance] of [
    ['small-cnn', { inputShape: [32, 32, 3] }, 8, 1e-3],
    ['resnet18', { inputShape: [32, 32, 3], stem: 'cifar' }, 4, 1e-3],
  ] as const) {
    it(`${name} (batch ${n}): every parameter's gradient matches the wasm path`, async () => {
      const model = createModel(name, { numClasses: 10, seed: 11, ...options });
      const { x, y } = batch(n, [...options.inputShape], 5);
      resetNativeKernelStats();
      const native = gradients(model, x, y);
      const stats = nativeKernelStats();
      // small-cnn's convolutions have biases: conv2dBias, one kernel (the wasm path below: conv2d + add).
      expect(stats[name === 'small-cnn' ? CONV2D_BIAS : 'Conv2D']?.native).toBeGreaterThan(0);
      expect(stats['Conv2DBackpropFilter']?.native).toBeGreaterThan(0);
      expect(stats['MiaBatchNormTrainingGrad']?.native).toBeGreaterThan(0);
      // Each BatchNorm followed by a ReLU runs as one kernel (forward and backward).
      expect(stats[BATCH_NORM_RELU_TRAINING]?.native).toBeGreaterThan(0);
      if (name === 'resnet18') expect(stats['MiaReluGrad']?.native, 'the ReLU after each residual sum').toBeGreaterThan(0);
      unregisterNativeKernels();
      const wasm = gradients(model, x, y);
      await useNativeTraining({ threads: 2 });
      expect([...native.keys()]).toEqual([...wasm.keys()]);
      const floor = 1e-2 * Math.max(...[...wasm.values()].map(maxAbs));
      const errors = [...native].map(([k, g]) => ({ k, e: relativeError(g, wasm.get(k)!, floor) }));
      const worst = errors.reduce((a, b) => (b.e > a.e ? b : a));
      expect(worst.e, `worst tensor ${worst.k}`).toBeLessThanOrEqual(tolerance);
      tf.dispose([x, y]);
      model.dispose();
    }, 300_000);
  }

  it('20 training steps of small-cnn leave no tensor, data id or heap growth behind', async () => {
    const backend = tf.backend() as unknown as Backend;
    const tensors = tf.memory().numTensors;
    const ids = backend.numDataIds();
    const model = createModel('small-cnn', { numClasses: 10, inputShape: [12, 12, 3], seed: 1 });
    const x = tf.randomNormal([80, 12, 12, 3], 0, 1, 'float32', 2);
    const data = labeledData({ x, y: Int32Array.from({ length: 80 }, (_, i) => i % 10), numClasses: 10 });
    const optimizer = sgd({ lr: 0.05, momentum: 0.9 });
    await train(model, data, { epochs: 1, batchSize: 8, optimizer, seed: 3 }); // warm-up: heap growth
    const heap = backend.wasm.HEAPU8.buffer.byteLength;
    const mid = { tensors: tf.memory().numTensors, ids: backend.numDataIds() };
    resetNativeKernelStats();
    await train(model, data, { epochs: 2, batchSize: 8, optimizer, seed: 4 }); // 20 steps
    expect(nativeKernelStats()[SGD_UPDATE]?.native, 'one native SGD step per variable and batch').toBe(20 * model.trainableVariables.length);
    expect(tf.memory().numTensors).toBe(mid.tensors);
    expect(backend.numDataIds()).toBe(mid.ids);
    expect(backend.wasm.HEAPU8.buffer.byteLength).toBe(heap);
    optimizer.dispose();
    model.dispose();
    x.dispose();
    expect(tf.memory().numTensors).toBe(tensors);
    expect(backend.numDataIds()).toBe(ids);
  }, 300_000);

  async function trainedWeights(threads: number): Promise<Float32Array[]> {
    await useNativeTraining({ threads });
    const model = createModel('resnet-narrow', { numClasses: 10, inputShape: [8, 8, 3], seed: 7 });
    const x = tf.randomNormal([64, 8, 8, 3], 0, 1, 'float32', 8);
    const data = labeledData({ x, y: Int32Array.from({ length: 64 }, (_, i) => (i * 3) % 10), numClasses: 10 });
    const optimizer = sgd({ lr: 0.05, momentum: 0.9, weightDecay: 5e-4 });
    await train(model, data, { epochs: 2, batchSize: 16, optimizer, seed: 9 });
    const weights = [...model.trainableVariables, ...model.stateVariables].map((v) => Float32Array.from(v.dataSync()));
    optimizer.dispose();
    model.dispose();
    x.dispose();
    return weights;
  }

  for (const threads of [1, 2]) {
    it(`two runs with one seed on ${threads} thread(s) give bit-identical weights`, async () => {
      const a = await trainedWeights(threads);
      const b = await trainedWeights(threads);
      expect(a.length).toBeGreaterThan(0);
      const differing = a.filter((w, i) => !w.every((v, j) => Object.is(v, b[i]![j])));
      expect(differing.length).toBe(0);
    }, 300_000);
  }
});
