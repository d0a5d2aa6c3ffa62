import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_NORM_TRAINING, BATCH_NORM_TRAINING_GRAD, batchNormTraining } from './batch-norm-training';
import { InvalidArgumentError } from './errors';
import { seededRandom } from './random';
import './register-gradients';

const EPS = 1e-3;

function uniform(size: number, seed: number, lo = -1, hi = 1): Float64Array {
  const r = seededRandom(seed);
  // Float32-representable, so tfjs and the float64 reference see the same inputs.
  return Float64Array.from({ length: size }, () => Math.fround(lo + (hi - lo) * r.next()));
}

const f32 = (v: ArrayLike<number>): Float32Array => Float32Array.from(v);

/** Float64 reference of batch norm in training mode over x viewed as [rows, channels]. */
function reference(x: ArrayLike<number>, scale: ArrayLike<number>, offset: ArrayLike<number>, channels: number) {
  const rows = x.length / channels;
  const mean = new Float64Array(channels);
  const variance = new Float64Array(channels);
  for (let i = 0; i < x.length; i++) mean[i % channels]! += x[i]! / rows;
  for (let i = 0; i < x.length; i++) variance[i % channels]! += (x[i]! - mean[i % channels]!) ** 2 / rows;
  const y = Float64Array.from(
    x,
    (v, i) => ((v - mean[i % channels]!) * scale[i % channels]!) / Math.sqrt(variance[i % channels]! + EPS) + offset[i % channels]!,
  );
  return { y, mean, variance };
}

/** Weights of the gradient tests' loss: Σ w·y + Σ a·mean + Σ b·variance. */
type LossWeights = Record<'w' | 'a' | 'b', Float64Array>;

function referenceLoss(x: ArrayLike<number>, scale: ArrayLike<number>, offset: ArrayLike<number>, c: number, lw: LossWeights): number {
  const { y, mean, variance } = reference(x, scale, offset, c);
  const dot = (u: Float64Array, w: Float64Array): number => u.reduce((sum, e, i) => sum + e * w[i]!, 0);
  return dot(y, lw.w) + dot(mean, lw.a) + dot(variance, lw.b);
}

function tfLoss(x: tf.Tensor, scale: tf.Tensor, offset: tf.Tensor, lw: LossWeights): tf.Scalar {
  const r = batchNormTraining(x, scale, offset, EPS);
  return tf.addN([
    tf.sum(tf.mul(r.y, tf.tensor(f32(lw.w), x.shape))),
    tf.sum(tf.mul(r.mean, tf.tensor1d(f32(lw.a)))),
    tf.sum(tf.mul(r.variance, tf.tensor1d(f32(lw.b)))),
  ]) as tf.Scalar;
}

/** Central differences of `f` at `v`, element by element (float64). */
function finiteDifferences(v: Float64Array, f: (v: Float64Array) => number, h = 1e-6): Float64Array {
  const shifted = (i: number, d: number): Float64Array => Float64Array.from(v, (e, k) => (k === i ? e + d : e));
  return Float64Array.from(v, (_, i) => (f(shifted(i, h)) - f(shifted(i, -h))) / (2 * h));
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, rel: number): void {
  expect(actual.length).toBe(expected.length);
  let scale = 1e-6;
  for (let i = 0; i < expected.length; i++) scale = Math.max(scale, Math.abs(expected[i]!));
  let worst = 0;
  for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(actual[i]! - expected[i]!));
  expect(worst / scale).toBeLessThanOrEqual(rel);
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('batchNormTraining (composite: tf.moments then tf.batchNorm)', () => {
  it('computes y, the batch mean and the biased variance (float64 reference)', () => {
    expect.hasAssertions();
    // Channel 0 of x = [1, 2, 3, 6]: mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5 (hand calculation).
    const x = [1, 10, 2, 20, 3, 30, 6, 40];
    const r = batchNormTraining(tf.tensor2d(x, [4, 2]), tf.tensor1d([2, 1]), tf.tensor1d([0.5, 0]), EPS);
    expect(r.mean.arraySync()[0]).toBeCloseTo(3, 6);
    expect(r.variance.arraySync()[0]).toBeCloseTo(3.5, 5);
    const ref = reference(x, [2, 1], [0.5, 0], 2);
    expectClose(r.y.dataSync(), ref.y, 1e-6);
    expectClose(r.variance.dataSync(), ref.variance, 1e-6);
  });

  for (const shape of [
    [5, 3],
    [2, 2, 3, 2],
  ]) {
    it(`its gradients in x, scale and offset, through the statistics, match finite differences (float64), shape [${shape.join(',')}]`, () => {
      expect.hasAssertions();
      const size = tf.util.sizeFromShape(shape);
      const c = shape[shape.length - 1]!;
      const x = uniform(size, 1, -2, 3);
      const scale = uniform(c, 2, 0.5, 1.5);
      const offset = uniform(c, 3);
      const lw = { w: uniform(size, 4), a: uniform(c, 5), b: uniform(c, 6) };
      const [gx, gs, go] = tf.grads((a: tf.Tensor, s: tf.Tensor, o: tf.Tensor) => tfLoss(a, s, o, lw))([
        tf.tensor(f32(x), shape),
        tf.tensor1d(f32(scale)),
        tf.tensor1d(f32(offset)),
      ]);
      expectClose(
        gx!.dataSync(),
        finiteDifferences(x, (v) => referenceLoss(v, scale, offset, c, lw)),
        1e-3,
      );
      expectClose(
        gs!.dataSync(),
        finiteDifferences(scale, (v) => referenceLoss(x, v, offset, c, lw)),
        1e-3,
      );
      expectClose(
        go!.dataSync(),
        finiteDifferences(offset, (v) => referenceLoss(x, scale, v, c, lw)),
        1e-3,
      );
    });
  }

  it('rejects bad input with InvalidArgumentError naming the argument', () => {
    expect.hasAssertions();
    expect(() => batchNormTraining(tf.tensor1d([1, 2]), undefined, undefined, EPS)).toThrow(InvalidArgumentError);
    expect(() => batchNormTraining(tf.tensor1d([1, 2]), undefined, undefined, EPS)).toThrow(/x must have rank ≥ 2, got shape \[2\]/);
    expect(() => batchNormTraining(tf.zeros([2, 3]), tf.ones([2]), undefined, EPS)).toThrow(/scale must have shape \[3\], got \[2\]/);
    expect(() => batchNormTraining(tf.zeros([2, 3]), undefined, tf.ones([1, 3]), EPS)).toThrow(/offset must have shape \[3\], got \[1,3\]/);
    expect(() => batchNormTraining(tf.zeros([2, 3]), undefined, undefined, 0)).toThrow(/epsilon must be > 0, got 0/);
    expect(() => batchNormTraining(tf.zeros([2, 3]), undefined, undefined, NaN)).toThrow(/epsilon must be > 0, got NaN/);
  });

  it('leaves no tensor behind (forward, and gradients)', () => {
    expect.hasAssertions();
    const x = tf.tensor(f32(uniform(24, 7)), [2, 3, 2, 2]);
    const s = tf.ones([2]);
    const o = tf.zeros([2]);
    const before = tf.memory().numTensors;
    const r = batchNormTraining(x, s, o, EPS);
    tf.dispose([r.y, r.mean, r.variance]);
    const grads = tf.grads((a: tf.Tensor, b: tf.Tensor, c: tf.Tensor) => tf.sum(batchNormTraining(a, b, c, EPS).y))([x, s, o]);
    tf.dispose(grads);
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([x, s, o]);
  });
});

/**
 * The fused kernel pair written in float64 JS on the cpu backend, following the contract that
 * BATCH_NORM_TRAINING and BATCH_NORM_TRAINING_GRAD document: batchNormTraining then takes its fused
 * path, and its gradient glue (the statistics' gradients added to the kernel's dx) is what is tested.
 */
function registerReferenceKernels(): void {
  type CpuBackend = { readSync(id: object): Float32Array; makeTensorInfo(shape: number[], dtype: 'float32', values: Float32Array): tf.TensorInfo };
  const read = (b: CpuBackend, t: tf.TensorInfo | undefined, fill: number, c: number) =>
    t === undefined ? new Float64Array(c).fill(fill) : Float64Array.from(b.readSync(t.dataId));
  tf.registerKernel({
    kernelName: BATCH_NORM_TRAINING,
    backendName: 'cpu',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const b = backend as unknown as CpuBackend;
      const { x, scale, offset } = inputs as Record<string, tf.TensorInfo | undefined>;
      const c = x!.shape[x!.shape.length - 1]!;
      expect(attrs?.['varianceEpsilon']).toBe(EPS);
      const r = reference(b.readSync(x!.dataId), read(b, scale, 1, c), read(b, offset, 0, c), c);
      return [
        b.makeTensorInfo(x!.shape, 'float32', Float32Array.from(r.y)),
        b.makeTensorInfo([c], 'float32', Float32Array.from(r.mean)),
        b.makeTensorInfo([c], 'float32', Float32Array.from(r.variance)),
      ];
    },
  });
  tf.registerKernel({
    kernelName: BATCH_NORM_TRAINING_GRAD,
    backendName: 'cpu',
    kernelFunc: ({ inputs, backend }) => {
      const b = backend as unknown as CpuBackend;
      const { dy, x, mean, variance, scale } = inputs as Record<string, tf.TensorInfo | undefined>;
      const c = x!.shape[x!.shape.length - 1]!;
      const [g, xv] = [b.readSync(dy!.dataId), b.readSync(x!.dataId)];
      const [m, v, s] = [read(b, mean, 0, c), read(b, variance, 0, c), read(b, scale, 1, c)];
      const n = xv.length / c;
      const [s1, s2] = [new Float64Array(c), new Float64Array(c)];
      for (let i = 0; i < xv.length; i++) {
        s1[i % c]! += g[i]!;
        s2[i % c]! += g[i]! * (xv[i]! - m[i % c]!);
      }
      const inv = Float64Array.from(v, (e) => 1 / Math.sqrt(e + EPS));
      // dx = k·(dy − S1/N − (x − mean)·S2/(N·(var + ε))), k = scale/√(var + ε) (the usual batch-norm backward).
      const dx = Float32Array.from(xv, (e, i) => s[i % c]! * inv[i % c]! * (g[i]! - s1[i % c]! / n - ((e - m[i % c]!) * s2[i % c]! * inv[i % c]! ** 2) / n));
      return [
        b.makeTensorInfo(x!.shape, 'float32', dx),
        b.makeTensorInfo(
          [c],
          'float32',
          Float32Array.from(s2, (e, k) => e * inv[k]!),
        ),
        b.makeTensorInfo([c], 'float32', Float32Array.from(s1)),
      ];
    },
  });
}

function unregisterReferenceKernels(): void {
  for (const name of [BATCH_NORM_TRAINING, BATCH_NORM_TRAINING_GRAD]) if (tf.getKernel(name, 'cpu') !== undefined) tf.unregisterKernel(name, 'cpu');
}

describe('batchNormTraining with a fused kernel pair (reference kernels on cpu)', () => {
  afterEach(unregisterReferenceKernels);

  /** Runs `fn` with the composite, then with the fused kernels; returns both results' values. */
  function bothWays(fn: () => tf.Tensor[]): [Float32Array[], Float32Array[]] {
    const run = () =>
      tf.tidy(fn).map((t) => {
        const v = t.dataSync() as Float32Array;
        t.dispose();
        return v;
      });
    const composite = run();
    registerReferenceKernels();
    const before = tf.memory().numTensors;
    const fused = run();
    expect(tf.memory().numTensors, 'tensors left over by the fused path').toBe(before);
    return [composite, fused];
  }

  const shape = [2, 3, 2, 3];
  const c = 3;
  const x = (): tf.Tensor => tf.tensor(f32(uniform(36, 11, -1, 2)), shape);
  const lw = { w: uniform(36, 12), a: uniform(c, 13), b: uniform(c, 14) };

  it('gives the composite forward values', () => {
    expect.hasAssertions();
    const [composite, fused] = bothWays(() => {
      const r = batchNormTraining(x(), tf.tensor1d([1, 2, 0.5]), tf.tensor1d([0, 1, -1]), EPS);
      return [r.y, r.mean, r.variance];
    });
    composite.forEach((v, i) => expectClose(fused[i]!, v, 1e-5));
  });

  it('gives the composite gradients in x, scale and offset when the loss uses y, mean and variance', () => {
    expect.hasAssertions();
    const [composite, fused] = bothWays(() =>
      tf.grads((a: tf.Tensor, s: tf.Tensor, o: tf.Tensor) => tfLoss(a, s, o, lw))([x(), tf.tensor1d([1, 2, 0.5]), tf.tensor1d([0, 1, -1])]),
    );
    expect(fused).toHaveLength(3);
    composite.forEach((v, i) => expectClose(fused[i]!, v, 1e-4));
  });

  it('gives the composite gradient in x when only y, only the mean or only the variance is used', () => {
    expect.hasAssertions();
    const losses: ((r: ReturnType<typeof batchNormTraining>) => tf.Scalar)[] = [
      (r) => tf.sum(tf.mul(r.y, tf.tensor(f32(lw.w), shape))),
      (r) => tf.sum(tf.mul(r.mean, tf.tensor1d(f32(lw.a)))),
      (r) => tf.sum(tf.mul(r.variance, tf.tensor1d(f32(lw.b)))),
    ];
    for (const loss of losses) {
      const [composite, fused] = bothWays(() => [
        tf.grad((a: tf.Tensor) => loss(batchNormTraining(a, tf.tensor1d([1, 2, 0.5]), tf.tensor1d([0, 1, -1]), EPS)))(x()),
      ]);
      expectClose(fused[0]!, composite[0]!, 1e-4);
      unregisterReferenceKernels();
    }
  });

  it('works without scale and offset under a gradient (the kernel gets ones as scale)', () => {
    expect.hasAssertions();
    // The composite reference passes ones and zeros: tf.batchNorm's own gradient needs both.
    const composite = tf.tidy(() =>
      tf
        .grad((a: tf.Tensor) => tf.sum(tf.mul(batchNormTraining(a, tf.ones([c]), tf.zeros([c]), EPS).y, tf.tensor(f32(lw.w), shape))))(x())
        .dataSync(),
    );
    registerReferenceKernels();
    const before = tf.memory().numTensors;
    const fused = tf.tidy(() =>
      tf
        .grad((a: tf.Tensor) => tf.sum(tf.mul(batchNormTraining(a, undefined, undefined, EPS).y, tf.tensor(f32(lw.w), shape))))(x())
        .dataSync(),
    );
    expect(tf.memory().numTensors).toBe(before);
    expectClose(fused, composite, 1e-4);
  });

  it("activation 'relu': relu of the linear output, the same through the kernel pair (no fused ReLU kernel here), and ReLU's gradient", () => {
    expect.hasAssertions();
    const scale = () => tf.tensor1d([1, 2, 0.5]);
    const offset = () => tf.tensor1d([0, 1, -1]);
    const dy = () => tf.tensor(f32(lw.w), shape);
    const relu = (a: tf.Tensor, s: tf.Tensor, o: tf.Tensor) => batchNormTraining(a, s, o, EPS, { activation: 'relu' }).y;
    const linearThenRelu = (a: tf.Tensor, s: tf.Tensor, o: tf.Tensor) => tf.relu(batchNormTraining(a, s, o, EPS).y);
    const outputs = (f: typeof relu) => () => [
      f(x(), scale(), offset()),
      ...tf.grads((a: tf.Tensor, s: tf.Tensor, o: tf.Tensor) => tf.sum(tf.mul(f(a, s, o), dy())))([x(), scale(), offset()]),
    ];
    const [expected] = bothWays(outputs(linearThenRelu));
    unregisterReferenceKernels();
    const [composite, viaKernels] = bothWays(outputs(relu));
    expect(expected[0]!.some((v) => v === 0) && expected[0]!.some((v) => v > 0)).toBe(true);
    expected.forEach((v, i) => {
      expect(Array.from(composite[i]!), `output ${i}, composite`).toEqual(Array.from(v));
      expectClose(viaKernels[i]!, v, 1e-4);
    });
  });

  it('rejects an unknown activation with the expected and actual value', () => {
    const ones = tf.ones([2, 3]);
    expect(() => batchNormTraining(ones, undefined, undefined, EPS, { activation: 'gelu' as 'relu' })).toThrow(
      /batchNormTraining: options.activation must be 'linear' or 'relu', got "gelu"/,
    );
    ones.dispose();
  });
});
