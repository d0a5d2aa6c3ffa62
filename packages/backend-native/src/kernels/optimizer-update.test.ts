// The native optimizer steps (MiaSgdUpdate, MiaAdamUpdate) against @mia/core's JS path: the same
// variables and gradients over several steps (with a changing learning rate, as a schedule gives)
// must give the same bits, on the native backend with the kernel removed and on tfjs's cpu backend.
import { ADAM_UPDATE, SGD_UPDATE, adam, seededRandom, sgd, type Optimizer } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, it } from 'vitest';
import { nativeKernelStats, resetNativeKernelStats } from '../kernel-stats';
import { setupNative, type NativeTestBackend } from '../test-utils/backends';
import { describeNative } from '../test-utils/native-available';

// [3, 3, 64, 64] is above the addon's parallel threshold (2^15 elements): it runs on both threads.
const shapes = [[7], [5, 3], [3, 3, 64, 64]];
const STEPS = 4;

/**
 * Gradient values spanning magnitudes 1e-3…1e3, with exact zeros and negative zeros (whose sign an
 * addition can change, so a different operation order shows in the bits).
 */
function gradientValues(size: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: size }, (_, i) => (i % 11 === 0 ? -0 : i % 13 === 0 ? 0 : (2 * random.next() - 1) * 10 ** ((i % 7) - 3)));
}

interface Run {
  /** Bits of every variable, then of every optimizer buffer, after the last step. */
  bits: Uint32Array[];
  /** Kernel calls counted natively. */
  fusedCalls: number;
}

const bitsOf = (t: tf.Tensor): Uint32Array => new Uint32Array(Float32Array.from(t.dataSync()).buffer);

function runSteps(make: () => Optimizer, kernel: string, backend: NativeTestBackend | undefined): Run {
  // tf.tidy frees the initial values, not the variables.
  const vars = tf.tidy(() => shapes.map((s, i) => tf.variable(tf.tensor(gradientValues(tf.util.sizeFromShape(s), 100 + i), s), true, `opt_test_w${i}`)));
  const initial = vars.map(bitsOf);
  const optimizer = make();
  resetNativeKernelStats();
  let counts: { tensors: number; ids: number } | undefined;
  for (let step = 0; step < STEPS; step++) {
    const grads = Object.fromEntries(vars.map((v, i) => [v.name, tf.tensor(gradientValues(v.size, 1000 * step + i), v.shape)]));
    optimizer.applyGradients(vars, grads, 0.1 * (1 - 0.2 * step));
    tf.dispose(Object.values(grads));
    // From the second step on, every step leaves the tensor and data-id counts where they were.
    const now = { tensors: tf.memory().numTensors, ids: backend?.numDataIds() ?? 0 };
    if (counts !== undefined) expect(now, `step ${step}: tensors and data ids`).toEqual(counts);
    counts = now;
  }
  const state = optimizer.getState();
  const bits = [...vars.map(bitsOf), ...state.map((s) => bitsOf(s.tensor))];
  vars.forEach((v, i) => expect(Array.from(bitsOf(v)), `variable ${i} was updated`).not.toEqual(Array.from(initial[i]!)));
  tf.dispose(state.map((s) => s.tensor));
  optimizer.dispose();
  tf.dispose(vars);
  return { bits, fusedCalls: nativeKernelStats()[kernel]?.native ?? 0 };
}

/** Runs `fn` with `kernel` unregistered from the wasm backend (the optimizer then takes its tfjs ops). */
function withoutKernel<T>(kernel: string, fn: () => T): T {
  const config = tf.getKernel(kernel, 'wasm')!;
  tf.unregisterKernel(kernel, 'wasm');
  try {
    return fn();
  } finally {
    tf.registerKernel(config);
  }
}

const cases: [string, string, () => Optimizer][] = [
  ['sgd, plain', SGD_UPDATE, () => sgd({ lr: 0.1 })],
  ['sgd, weight decay without momentum', SGD_UPDATE, () => sgd({ lr: 0.1, weightDecay: 1e-2 })],
  ['sgd, momentum', SGD_UPDATE, () => sgd({ lr: 0.1, momentum: 0.9 })],
  ['sgd, momentum and weight decay', SGD_UPDATE, () => sgd({ lr: 0.1, momentum: 0.9, weightDecay: 5e-4 })],
  ['sgd, momentum, dampening and weight decay', SGD_UPDATE, () => sgd({ lr: 0.1, momentum: 0.8, dampening: 0.3, weightDecay: 5e-4 })],
  ['sgd, Nesterov', SGD_UPDATE, () => sgd({ lr: 0.1, momentum: 0.9, nesterov: true })],
  ['sgd, Nesterov and weight decay', SGD_UPDATE, () => sgd({ lr: 0.1, momentum: 0.9, nesterov: true, weightDecay: 5e-4 })],
  ['adam, defaults', ADAM_UPDATE, () => adam({ lr: 1e-3 })],
  ['adam, weight decay and other betas and epsilon', ADAM_UPDATE, () => adam({ lr: 1e-2, beta1: 0.8, beta2: 0.99, epsilon: 1e-6, weightDecay: 1e-4 })],
];

describeNative('native optimizer steps are bit-equal to the JS path', () => {
  let backend: NativeTestBackend;
  beforeAll(async () => {
    backend = await setupNative();
  });

  for (const [name, kernel, make] of cases) {
    it(`${name}: ${STEPS} steps give the same bits as the tfjs ops (native backend and tfjs-cpu), leaving nothing behind`, async () => {
      await tf.setBackend('wasm');
      const fused = runSteps(make, kernel, backend);
      expect(fused.fusedCalls, 'one kernel call per variable and step').toBe(shapes.length * STEPS);
      const js = withoutKernel(kernel, () => runSteps(make, kernel, backend));
      expect(js.fusedCalls, 'the JS path ran without the kernel').toBe(0);
      await tf.setBackend('cpu');
      const cpu = runSteps(make, kernel, undefined);
      await tf.setBackend('wasm');
      expect(fused.bits.length).toBe(js.bits.length);
      fused.bits.forEach((b, i) => {
        expect(Array.from(b), `tensor ${i} vs the JS path on the native backend`).toEqual(Array.from(js.bits[i]!));
        expect(Array.from(b), `tensor ${i} vs the JS path on tfjs-cpu`).toEqual(Array.from(cpu.bits[i]!));
      });
    }, 60_000);
  }

  it('a fused step leaves no tensor or data id behind beyond the optimizer buffers it creates', async () => {
    await tf.setBackend('wasm');
    const tensors = tf.memory().numTensors;
    const ids = backend.numDataIds();
    for (const [, kernel, make] of cases) runSteps(make, kernel, backend);
    expect(tf.memory().numTensors).toBe(tensors);
    expect(backend.numDataIds()).toBe(ids);
  });

  it('rejects bad hyperparameters with the argument, the expected and the actual value, leaving nothing behind', async () => {
    await tf.setBackend('wasm');
    const tensors = tf.memory().numTensors;
    const ids = backend.numDataIds();
    const run = (attrs: Record<string, unknown>) => () =>
      tf.tidy(() => {
        tf.engine().runKernel(SGD_UPDATE, { variable: tf.ones([3]), gradient: tf.ones([3]) }, {
          lr: 0.1,
          momentum: 0.9,
          dampening: 0,
          nesterov: false,
          weightDecay: 0,
          ...attrs,
        } as tf.NamedAttrMap);
      });
    expect(run({ momentum: 1 })).toThrow(/sgdUpdate: momentum: expected a number in \[0, 1\), got 1/);
    expect(run({ lr: -1 })).toThrow(/sgdUpdate: lr: expected a number ≥ 0, got -1/);
    expect(run({ nesterov: true, dampening: 0.5 })).toThrow(/sgdUpdate: nesterov: needs momentum > 0 and dampening 0/);
    expect(run({ lr: 'fast' })).toThrow(/attribute lr must be a number, got string/);
    expect(tf.memory().numTensors).toBe(tensors);
    expect(backend.numDataIds()).toBe(ids);
  });
});
