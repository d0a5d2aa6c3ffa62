import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DENSE_BIAS, DENSE_BIAS_GRAD_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT, denseBias, type DenseActivation } from './dense-bias';
import { InvalidArgumentError } from './errors';
import { seededRandom } from './random';
import './register-gradients';
import { registerDenseBiasReference, type DenseBiasReference } from './testing/dense-bias-reference';

const activations: DenseActivation[] = ['linear', 'relu', 'tanh'];

function uniform(shape: number[], seed: number): tf.Tensor {
  const r = seededRandom(seed);
  return tf.tensor(
    Float32Array.from({ length: tf.util.sizeFromShape(shape) }, () => 2 * r.next() - 1),
    shape,
  );
}

/** What denseBias must equal where no backend fuses it: matMul, add, then the activation. */
function unfused(x: tf.Tensor, w: tf.Tensor, b: tf.Tensor, activation: DenseActivation): tf.Tensor {
  const z = tf.add(tf.matMul(x as tf.Tensor2D, w as tf.Tensor2D), b);
  return activation === 'relu' ? tf.relu(z) : activation === 'tanh' ? tf.tanh(z) : z;
}

/** y and the gradients in x, weight and bias of Σ r·f(x, w, b), values copied out. */
function valuesAndGradients(f: (x: tf.Tensor, w: tf.Tensor, b: tf.Tensor) => tf.Tensor, seed: number, rows = 5, fin = 4, fout = 3): Float32Array[] {
  return tf.tidy(() => {
    const [x, w, b, r] = [uniform([rows, fin], seed), uniform([fin, fout], seed + 1), uniform([fout], seed + 2), uniform([rows, fout], seed + 3)];
    const grads = tf.grads((a: tf.Tensor, c: tf.Tensor, d: tf.Tensor) => tf.sum(tf.mul(f(a, c, d), r)))([x, w, b]);
    return [f(x, w, b), ...grads].map((t) => t.dataSync() as Float32Array);
  });
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('denseBias without a fused kernel (cpu)', () => {
  it('computes act(x·W + b) (hand calculation)', () => {
    expect.hasAssertions();
    // x·W = [1·1 + 2·0.5, 1·(−1) + 2·2] = [2, 3]; + b = [2.5, −1].
    const x = tf.tensor2d([[1, 2]]);
    const w = tf.tensor2d([
      [1, -1],
      [0.5, 2],
    ]);
    const b = tf.tensor1d([0.5, -4]);
    expect(Array.from(denseBias(x, w, b).dataSync())).toEqual([2.5, -1]);
    expect(Array.from(denseBias(x, w, b, 'relu').dataSync())).toEqual([2.5, 0]);
    const tanh = denseBias(x, w, b, 'tanh').dataSync();
    expect(tanh[0]).toBeCloseTo(Math.tanh(2.5), 6);
    expect(tanh[1]).toBeCloseTo(Math.tanh(-1), 6);
    tf.dispose([x, w, b]);
  });

  for (const activation of activations) {
    it(`${activation}: values and gradients are exactly those of matMul, add and the activation`, () => {
      expect.hasAssertions();
      const fused = valuesAndGradients((x, w, b) => denseBias(x, w, b, activation), 1);
      const reference = valuesAndGradients((x, w, b) => unfused(x, w, b, activation), 1);
      fused.forEach((v, i) => expect(v).toEqual(reference[i]));
    });
  }

  it('rejects bad shapes and activations with InvalidArgumentError naming the argument', () => {
    expect.hasAssertions();
    const [x, w, b] = [tf.zeros([2, 3]), tf.zeros([3, 4]), tf.zeros([4])];
    const cases: [() => unknown, RegExp][] = [
      [() => denseBias(tf.zeros([2, 3, 1]), w, b), /^denseBias: x must have rank 2 \(\[batch, in\]\), got shape \[2,3,1\]/],
      [() => denseBias(x, tf.zeros([4, 4]), b), /^denseBias: weight must have shape \[3, out\], got \[4,4\]/],
      [() => denseBias(x, w, tf.zeros([3])), /^denseBias: bias must have shape \[4\], got \[3\]/],
      [() => denseBias(x, w, tf.zeros([1, 4])), /^denseBias: bias must have shape \[4\], got \[1,4\]/],
      [() => denseBias(x, w, b, 'sigmoid' as DenseActivation), /^denseBias: activation must be one of linear, relu, tanh, got "sigmoid"/],
    ];
    for (const [call, message] of cases) {
      expect(call).toThrow(InvalidArgumentError);
      expect(call).toThrow(message);
    }
    tf.dispose([x, w, b]);
  });
});

describe('denseBias with the fused kernels (reference kernels on cpu)', () => {
  let reference: DenseBiasReference | undefined;
  afterEach(() => {
    reference?.dispose();
    reference = undefined;
  });

  for (const activation of activations) {
    it(`${activation}: one kernel forward; its gradients (one kernel per input) match those of the unfused ops`, () => {
      expect.hasAssertions();
      const unfusedValues = valuesAndGradients((x, w, b) => unfused(x, w, b, activation), 7, 6, 5, 4);
      reference = registerDenseBiasReference();
      const fusedValues = valuesAndGradients((x, w, b) => denseBias(x, w, b, activation), 7, 6, 5, 4);
      expect(reference.calls).toEqual({ [DENSE_BIAS]: 2, [DENSE_BIAS_GRAD_INPUT]: 1, [DENSE_BIAS_GRAD_WEIGHT]: 1, [DENSE_BIAS_GRAD_BIAS]: 1 });
      fusedValues.forEach((v, i) => {
        const want = unfusedValues[i]!;
        expect(v.length).toBe(want.length);
        v.forEach((e, k) => expect(e).toBeCloseTo(want[k]!, 5));
      });
    });
  }

  it('runs no BatchMatMul, Add, Relu or Tanh, and asks for no input gradient where the input is data (a first layer)', () => {
    expect.hasAssertions();
    reference = registerDenseBiasReference();
    const seen: string[] = [];
    const engine = tf.engine() as unknown as { runKernelFunc(p: { kernelName: string }): unknown };
    const original = engine.runKernelFunc.bind(engine);
    engine.runKernelFunc = (p) => {
      seen.push(p.kernelName);
      return original(p);
    };
    try {
      tf.tidy(() => {
        const [x, w1, b1, w2, b2] = [uniform([8, 6], 1), uniform([6, 5], 2), uniform([5], 3), uniform([5, 2], 4), uniform([2], 5)];
        const vars = [w1, b1, w2, b2].map((t) => tf.variable(t));
        const { grads } = tf.variableGrads(() => tf.sum(denseBias(denseBias(x, vars[0]!, vars[1]!, 'tanh'), vars[2]!, vars[3]!)) as tf.Scalar, vars);
        expect(Object.keys(grads)).toHaveLength(4);
        for (const v of vars) v.dispose();
      });
    } finally {
      engine.runKernelFunc = original;
    }
    // Two layers: two forward kernels; the second layer's input gradient only (the first layer's input is data).
    expect(reference.calls).toEqual({ [DENSE_BIAS]: 2, [DENSE_BIAS_GRAD_INPUT]: 1, [DENSE_BIAS_GRAD_WEIGHT]: 2, [DENSE_BIAS_GRAD_BIAS]: 2 });
    expect(seen.filter((k) => ['BatchMatMul', '_FusedMatMul', 'Add', 'Relu', 'Tanh'].includes(k))).toEqual([]);
  });

  it('falls back to the tfjs ops for tensors that are not float32', () => {
    expect.hasAssertions();
    reference = registerDenseBiasReference();
    const y = denseBias(tf.tensor2d([[1, 2]], [1, 2], 'int32'), tf.tensor2d([[1], [1]], [2, 1], 'int32'), tf.tensor1d([1], 'int32'));
    expect(y.dtype).toBe('int32');
    expect(Array.from(y.dataSync())).toEqual([4]);
    expect(reference.calls[DENSE_BIAS]).toBeUndefined();
  });
});

describe('denseBias leaves no tensor behind', () => {
  afterEach(() => {
    for (const k of [DENSE_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT, DENSE_BIAS_GRAD_BIAS])
      if (tf.getKernel(k, 'cpu') !== undefined) tf.unregisterKernel(k, 'cpu');
  });

  for (const fusedKernels of [false, true]) {
    it(`forward and gradients, ${fusedKernels ? 'fused kernels' : 'tfjs ops'}`, () => {
      expect.hasAssertions();
      if (fusedKernels) registerDenseBiasReference();
      const [x, w, b] = [uniform([4, 3], 1), uniform([3, 2], 2), uniform([2], 3)];
      const before = tf.memory().numTensors;
      const y = denseBias(x, w, b, 'relu');
      y.dispose();
      const grads = tf.grads((a: tf.Tensor, c: tf.Tensor, d: tf.Tensor) => tf.sum(denseBias(a, c, d, 'tanh')))([x, w, b]);
      tf.dispose(grads);
      expect(tf.memory().numTensors).toBe(before);
      tf.dispose([x, w, b]);
    });
  }
});
