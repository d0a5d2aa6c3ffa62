import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { crossEntropy, crossEntropyPerExample } from './cross-entropy';
import { SOFTMAX_CROSS_ENTROPY, SOFTMAX_CROSS_ENTROPY_GRAD } from './fused-cross-entropy';
import { seededRandom } from './random';
import './register-gradients';

type CpuBackend = { readSync(id: object): ArrayLike<number>; makeTensorInfo(shape: number[], dtype: 'float32', values: Float32Array): tf.TensorInfo };

/** Per row: logSumExp(z) − z[label] and softmax(z), float64. */
function rowsOf(z: ArrayLike<number>, labels: ArrayLike<number>, c: number): { loss: number[]; softmax: number[][] } {
  const loss: number[] = [];
  const softmax: number[][] = [];
  for (let i = 0; i < labels.length; i++) {
    const row = Array.from({ length: c }, (_, j) => z[i * c + j]!);
    const m = Math.max(...row);
    const s = row.reduce((a, v) => a + Math.exp(v - m), 0);
    loss.push(m + Math.log(s) - (labels[i]! >= 0 && labels[i]! < c ? row[labels[i]!]! : 0));
    softmax.push(row.map((v) => Math.exp(v - m) / s));
  }
  return { loss, softmax };
}

const calls: Record<string, number> = {};

/** The two kernels in float64 JavaScript, as SOFTMAX_CROSS_ENTROPY's TSDoc specifies them, counting their calls. */
function registerReferenceKernels(): void {
  for (const k of Object.keys(calls)) delete calls[k];
  tf.registerKernel({
    kernelName: SOFTMAX_CROSS_ENTROPY,
    backendName: 'cpu',
    kernelFunc: ({ inputs, backend, attrs }) => {
      calls[SOFTMAX_CROSS_ENTROPY] = (calls[SOFTMAX_CROSS_ENTROPY] ?? 0) + 1;
      const b = backend as unknown as CpuBackend;
      const { logits, labels } = inputs as Record<string, tf.TensorInfo>;
      const { loss } = rowsOf(b.readSync(logits!.dataId), b.readSync(labels!.dataId), logits!.shape[1]!);
      if (attrs?.['reduction'] === 'mean') return b.makeTensorInfo([], 'float32', Float32Array.of(loss.reduce((a, v) => a + v, 0) / loss.length));
      return b.makeTensorInfo([loss.length], 'float32', Float32Array.from(loss));
    },
  });
  tf.registerKernel({
    kernelName: SOFTMAX_CROSS_ENTROPY_GRAD,
    backendName: 'cpu',
    kernelFunc: ({ inputs, backend, attrs }) => {
      calls[SOFTMAX_CROSS_ENTROPY_GRAD] = (calls[SOFTMAX_CROSS_ENTROPY_GRAD] ?? 0) + 1;
      const b = backend as unknown as CpuBackend;
      const { dy, logits, labels } = inputs as Record<string, tf.TensorInfo>;
      const [n, c] = logits!.shape as [number, number];
      const y = b.readSync(labels!.dataId);
      const { softmax } = rowsOf(b.readSync(logits!.dataId), y, c);
      const d = b.readSync(dy!.dataId);
      const out = new Float32Array(n * c);
      for (let i = 0; i < n; i++) {
        const scale = attrs?.['reduction'] === 'mean' ? d[0]! / n : d[i]!;
        for (let j = 0; j < c; j++) out[i * c + j] = scale * (softmax[i]![j]! - (y[i] === j ? 1 : 0));
      }
      return b.makeTensorInfo([n, c], 'float32', out);
    },
  });
}

function unregisterReferenceKernels(): void {
  for (const k of [SOFTMAX_CROSS_ENTROPY, SOFTMAX_CROSS_ENTROPY_GRAD]) if (tf.getKernel(k, 'cpu') !== undefined) tf.unregisterKernel(k, 'cpu');
}

function uniform(shape: number[], seed: number, scale = 1): tf.Tensor {
  const r = seededRandom(seed);
  return tf.tensor(
    Float32Array.from({ length: tf.util.sizeFromShape(shape) }, () => scale * (2 * r.next() - 1)),
    shape,
  );
}

/** Per-example losses, their mean, and the gradients of Σ w·loss and of the mean, values copied out. */
function lossesAndGradients(n: number, c: number, seed: number): Float32Array[] {
  return tf.tidy(() => {
    const z = uniform([n, c], seed, 4) as tf.Tensor2D;
    const labels = tf.tensor1d(
      Array.from({ length: n }, (_, i) => (i * 5) % c),
      'int32',
    );
    const w = uniform([n], seed + 1);
    const perExample = tf.grad((a: tf.Tensor) => tf.sum(tf.mul(crossEntropyPerExample(a as tf.Tensor2D, labels), w)))(z);
    const mean = tf.grad((a: tf.Tensor) => crossEntropy(a as tf.Tensor2D, labels))(z);
    return [crossEntropyPerExample(z, labels), crossEntropy(z, labels), perExample, mean].map((t) => t.dataSync() as Float32Array);
  });
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('crossEntropyPerExample and crossEntropy (tfjs ops)', () => {
  it('compute logSumExp(z) − z[label] and its mean (hand calculation)', () => {
    expect.hasAssertions();
    // Row 1: ln(e^0 + e^ln3) − ln3 = ln(4/3); row 2: ln(e^2 + e^2) − 2 = ln 2.
    const z = tf.tensor2d([
      [0, Math.log(3)],
      [2, 2],
    ]);
    const y = tf.tensor1d([1, 0], 'int32');
    const l = crossEntropyPerExample(z, y).dataSync();
    expect(l[0]).toBeCloseTo(Math.log(4 / 3), 6);
    expect(l[1]).toBeCloseTo(Math.log(2), 6);
    expect(crossEntropy(z, y).dataSync()[0]).toBeCloseTo((Math.log(4 / 3) + Math.log(2)) / 2, 6);
    tf.dispose([z, y]);
  });
});

describe('crossEntropyPerExample and crossEntropy with the fused kernels (reference kernels on cpu)', () => {
  afterEach(unregisterReferenceKernels);

  it('give the values and the logits gradients of the tfjs ops, through one kernel each way per call', () => {
    expect.hasAssertions();
    const unfused = lossesAndGradients(9, 5, 3);
    registerReferenceKernels();
    const fused = lossesAndGradients(9, 5, 3);
    // Two losses in the gradients and two for the values: four forward calls, two gradient calls.
    expect(calls).toEqual({ [SOFTMAX_CROSS_ENTROPY]: 4, [SOFTMAX_CROSS_ENTROPY_GRAD]: 2 });
    fused.forEach((v, i) => {
      expect(v.length).toBe(unfused[i]!.length);
      v.forEach((e, k) => expect(e).toBeCloseTo(unfused[i]![k]!, 5));
    });
  });

  it('give the labels a zero gradient when they depend on what is differentiated', () => {
    expect.hasAssertions();
    registerReferenceKernels();
    tf.tidy(() => {
      const z = uniform([4, 3], 5);
      // Labels computed from z (argMax) are on the tape's path from z: the kernel's gradient must answer for them.
      const g = tf.grad((a: tf.Tensor) => crossEntropy(a as tf.Tensor2D, tf.argMax(a, 1) as tf.Tensor1D))(z);
      expect(g.shape).toEqual([4, 3]);
    });
    expect(calls[SOFTMAX_CROSS_ENTROPY_GRAD]).toBe(1);
  });

  it('run the tfjs ops for float32 labels, one class, or mismatched shapes (errors and values as before)', () => {
    expect.hasAssertions();
    registerReferenceKernels();
    const z = tf.tensor2d([
      [0, 1],
      [1, 0],
    ]);
    const floatLabels = crossEntropyPerExample(z, tf.tensor1d([1, 0]));
    expect(floatLabels.dataSync()[0]).toBeCloseTo(Math.log(1 + Math.E) - 1, 6);
    expect(() => crossEntropy(tf.tensor2d([[1], [2]]), tf.tensor1d([0, 0], 'int32'))).toThrow(/depth must be >=2/);
    expect(calls[SOFTMAX_CROSS_ENTROPY]).toBeUndefined();
  });
});

describe('crossEntropy leaves no tensor behind', () => {
  afterEach(unregisterReferenceKernels);

  for (const fusedKernels of [false, true]) {
    it(`values and gradients, ${fusedKernels ? 'fused kernels' : 'tfjs ops'}`, () => {
      expect.hasAssertions();
      if (fusedKernels) registerReferenceKernels();
      const z = uniform([6, 4], 1);
      const y = tf.tensor1d([0, 1, 2, 3, 0, 1], 'int32');
      const before = tf.memory().numTensors;
      tf.dispose([crossEntropy(z as tf.Tensor2D, y), crossEntropyPerExample(z as tf.Tensor2D, y)]);
      tf.dispose(tf.grad((a: tf.Tensor) => crossEntropy(a as tf.Tensor2D, y))(z));
      expect(tf.memory().numTensors).toBe(before);
      tf.dispose([z, y]);
    });
  }
});
