import {
  ADAM_UPDATE,
  BATCH_NORM_RELU_TRAINING,
  BATCH_NORM_TRAINING,
  BATCH_NORM_TRAINING_GRAD,
  CONV2D_BIAS,
  DENSE_BIAS,
  DENSE_BIAS_GRAD_BIAS,
  DENSE_BIAS_GRAD_INPUT,
  DENSE_BIAS_GRAD_WEIGHT,
  SGD_UPDATE,
  SOFTMAX_CROSS_ENTROPY,
  SOFTMAX_CROSS_ENTROPY_GRAD,
} from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, it } from 'vitest';
import { nativeKernelConfigs } from './kernel-configs';
import { nativeKernelStats, resetNativeKernelStats } from './kernel-stats';
import { RELU_GRAD, TANH_GRAD } from './kernels/activation-gradients';
import { loadNativeAddon } from './load-native-addon';
import { randomTensor, setupNative, type NativeTestBackend } from './test-utils/backends';
import { describeNative } from './test-utils/native-available';

const run =
  (name: string, inputs: Record<string, tf.Tensor>, attrs: Record<string, unknown> = {}) =>
  (): tf.Tensor | tf.Tensor[] =>
    tf.engine().runKernel(name, inputs, attrs as tf.NamedAttrMap) as tf.Tensor | tf.Tensor[];
const conv = { strides: [2, 2], pad: 'same', dataFormat: 'NHWC', dilations: [1, 1], dimRoundingMode: undefined };
const pool = { filterSize: [3, 3], strides: [2, 2], pad: 'same', dimRoundingMode: undefined };

/** One call of every native kernel through runKernel: `make()` creates the inputs and returns the call. */
const calls: Record<string, () => () => tf.Tensor | tf.Tensor[]> = {
  Conv2D: () => run('Conv2D', { x: randomTensor([2, 7, 7, 3], 1), filter: randomTensor([3, 3, 3, 4], 2) }, conv),
  FusedConv2D: () =>
    run(
      'FusedConv2D',
      { x: randomTensor([2, 7, 7, 3], 1), filter: randomTensor([3, 3, 3, 4], 2), bias: randomTensor([4], 3) },
      { ...conv, activation: 'relu6' },
    ),
  [CONV2D_BIAS]: () => run(CONV2D_BIAS, { x: randomTensor([2, 7, 7, 3], 1), filter: randomTensor([3, 3, 3, 4], 2), bias: randomTensor([4], 3) }, conv),
  Conv2DBackpropInput: () =>
    run('Conv2DBackpropInput', { dy: randomTensor([2, 4, 4, 4], 1), filter: randomTensor([3, 3, 3, 4], 2) }, { ...conv, inputShape: [2, 7, 7, 3] }),
  Conv2DBackpropFilter: () =>
    run('Conv2DBackpropFilter', { x: randomTensor([2, 7, 7, 3], 1), dy: randomTensor([2, 4, 4, 4], 2) }, { ...conv, filterShape: [3, 3, 3, 4] }),
  BatchMatMul: () => run('BatchMatMul', { a: randomTensor([3, 5, 7], 1), b: randomTensor([7, 4], 2) }, { transposeA: false, transposeB: false }),
  _FusedMatMul: () =>
    run(
      '_FusedMatMul',
      { a: randomTensor([5, 7], 1), b: randomTensor([4, 7], 2), bias: randomTensor([4], 3) },
      { transposeA: false, transposeB: true, activation: 'sigmoid' },
    ),
  [DENSE_BIAS]: () => run(DENSE_BIAS, { x: randomTensor([5, 7], 1), weight: randomTensor([7, 4], 2), bias: randomTensor([4], 3) }, { activation: 'tanh' }),
  [DENSE_BIAS_GRAD_INPUT]: () =>
    run(DENSE_BIAS_GRAD_INPUT, { dy: randomTensor([5, 4], 1), y: randomTensor([5, 4], 2), weight: randomTensor([7, 4], 3) }, { activation: 'relu' }),
  [DENSE_BIAS_GRAD_WEIGHT]: () =>
    run(DENSE_BIAS_GRAD_WEIGHT, { dy: randomTensor([5, 4], 1), y: randomTensor([5, 4], 2), x: randomTensor([5, 7], 3) }, { activation: 'tanh' }),
  [DENSE_BIAS_GRAD_BIAS]: () => run(DENSE_BIAS_GRAD_BIAS, { dy: randomTensor([5, 4], 1), y: randomTensor([5, 4], 2) }, { activation: 'tanh' }),
  [SOFTMAX_CROSS_ENTROPY]: () =>
    run(SOFTMAX_CROSS_ENTROPY, { logits: randomTensor([5, 4], 1), labels: tf.tensor1d([0, 1, 2, 3, 0], 'int32') }, { reduction: 'none' }),
  [SOFTMAX_CROSS_ENTROPY_GRAD]: () =>
    run(
      SOFTMAX_CROSS_ENTROPY_GRAD,
      { dy: randomTensor([], 1), logits: randomTensor([5, 4], 2), labels: tf.tensor1d([0, 1, 2, 3, 0], 'int32') },
      { reduction: 'mean' },
    ),
  GatherV2: () => run('GatherV2', { x: randomTensor([6, 3], 1), indices: tf.tensor1d([5, 0, 2], 'int32') }, { axis: 0, batchDims: 0 }),
  ...Object.fromEntries(
    ['Add', 'Sub', 'Multiply', 'RealDiv', 'SquaredDifference', 'Maximum', 'Minimum'].map((k) => [
      k,
      () => run(k, { a: randomTensor([4, 1, 3], 1), b: randomTensor([5, 3], 2) }),
    ]),
  ),
  ...Object.fromEntries(
    ['Relu', 'Relu6', 'Step', 'Tanh', 'Sigmoid', 'Neg', 'Square', 'Sqrt', 'Rsqrt', 'Exp', 'Log', 'Abs', 'Elu', 'LeakyRelu'].map((k) => [
      k,
      () => run(k, { x: randomTensor([4, 5], 1) }, { alpha: 0.2 }),
    ]),
  ),
  AddN: () => run('AddN', [randomTensor([4, 5], 1), randomTensor([4, 5], 2), randomTensor([4, 5], 3)] as unknown as Record<string, tf.Tensor>),
  Sum: () => run('Sum', { x: randomTensor([2, 3, 4], 1) }, { axis: [0, 1], keepDims: false }),
  Mean: () => run('Mean', { x: randomTensor([2, 3, 4], 1) }, { axis: [2], keepDims: true }),
  Max: () => run('Max', { x: randomTensor([2, 3, 4], 1) }, { reductionIndices: [1], keepDims: false }),
  Min: () => run('Min', { x: randomTensor([2, 3, 4], 1) }, { axis: [1, 2], keepDims: false }),
  MaxPool: () => run('MaxPool', { x: randomTensor([2, 7, 7, 3], 1) }, pool),
  AvgPool: () => run('AvgPool', { x: randomTensor([2, 7, 7, 3], 1) }, pool),
  MaxPoolGrad: () =>
    run('MaxPoolGrad', { dy: randomTensor([2, 4, 4, 3], 1), input: randomTensor([2, 7, 7, 3], 2), output: randomTensor([2, 4, 4, 3], 3) }, pool),
  AvgPoolGrad: () => run('AvgPoolGrad', { dy: randomTensor([2, 4, 4, 3], 1), input: randomTensor([2, 7, 7, 3], 2) }, pool),
  FusedBatchNorm: () =>
    run(
      'FusedBatchNorm',
      { x: randomTensor([2, 3, 4], 1), mean: randomTensor([4], 2), variance: tf.ones([4]), offset: randomTensor([4], 3), scale: randomTensor([4], 4) },
      { varianceEpsilon: 1e-3 },
    ),
  [BATCH_NORM_TRAINING]: () =>
    run(BATCH_NORM_TRAINING, { x: randomTensor([2, 3, 4], 1), scale: randomTensor([4], 2), offset: randomTensor([4], 3) }, { varianceEpsilon: 1e-3 }),
  [BATCH_NORM_RELU_TRAINING]: () =>
    run(BATCH_NORM_RELU_TRAINING, { x: randomTensor([2, 3, 4], 1), scale: randomTensor([4], 2), offset: randomTensor([4], 3) }, { varianceEpsilon: 1e-3 }),
  [BATCH_NORM_TRAINING_GRAD]: () =>
    run(
      BATCH_NORM_TRAINING_GRAD,
      {
        dy: randomTensor([2, 3, 4], 1),
        x: randomTensor([2, 3, 4], 2),
        mean: randomTensor([4], 3),
        variance: tf.ones([4]),
        scale: randomTensor([4], 4),
        y: randomTensor([2, 3, 4], 5),
      },
      { varianceEpsilon: 1e-3 },
    ),
  [RELU_GRAD]: () => run(RELU_GRAD, { dy: randomTensor([4, 5], 1), x: randomTensor([4, 5], 2) }),
  [TANH_GRAD]: () => run(TANH_GRAD, { dy: randomTensor([4, 5], 1), y: randomTensor([4, 5], 2) }),
  [SGD_UPDATE]: () =>
    run(
      SGD_UPDATE,
      { variable: randomTensor([4, 5], 1), gradient: randomTensor([4, 5], 2), momentum: randomTensor([4, 5], 3) },
      { lr: 0.1, momentum: 0.9, dampening: 0, nesterov: true, weightDecay: 5e-4 },
    ),
  [ADAM_UPDATE]: () =>
    run(
      ADAM_UPDATE,
      { variable: randomTensor([4, 5], 1), gradient: randomTensor([4, 5], 2), m: randomTensor([4, 5], 3), v: tf.square(randomTensor([4, 5], 4)) },
      { lr: 1e-3, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0, biasCorrection1: 0.1, biasCorrection2: 0.001 },
    ),
};

describeNative('native kernels leave nothing behind', () => {
  let backend: NativeTestBackend;
  beforeAll(async () => {
    backend = await setupNative();
  });

  it('has a call below for every registered native kernel', () => {
    expect.hasAssertions();
    expect(Object.keys(calls).sort()).toEqual(nativeKernelConfigs.map((c) => c.kernelName).sort());
  });

  for (const [name, make] of Object.entries(calls)) {
    it(`${name}: leaves only its outputs (no intermediate data id), and nothing once they are disposed`, () => {
      expect.hasAssertions();
      const tensors = tf.memory().numTensors;
      const dataIds = backend.numDataIds();
      tf.tidy(() => {
        const call = make();
        const withInputs = backend.numDataIds();
        resetNativeKernelStats();
        const out = call();
        expect(nativeKernelStats()[name]?.native, `${name} ran natively`).toBe(1);
        expect(backend.numDataIds(), 'data ids: the inputs and the outputs only').toBe(withInputs + (Array.isArray(out) ? out.length : 1));
      });
      expect(tf.memory().numTensors).toBe(tensors);
      expect(backend.numDataIds()).toBe(dataIds);
    });
  }

  it('repeated calls of every kernel keep the wasm heap and the addon scratch buffers at their size', () => {
    expect.hasAssertions();
    const addon = loadNativeAddon();
    const once = () => {
      for (const make of Object.values(calls)) {
        tf.tidy(() => {
          make()();
        });
      }
    };
    once();
    once();
    const heap = backend.wasm.HEAPU8.buffer.byteLength;
    const scratch = addon.info().scratchBytes;
    const dataIds = backend.numDataIds();
    for (let round = 0; round < 5; round++) once();
    expect(backend.wasm.HEAPU8.buffer.byteLength).toBe(heap);
    expect(addon.info().scratchBytes).toBe(scratch);
    expect(backend.numDataIds()).toBe(dataIds);
  });
});
