import * as tf from '@tensorflow/tfjs-core';
import { DENSE_BIAS, DENSE_BIAS_GRAD_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT, type DenseActivation } from '../dense-bias';

/** The kernels {@link registerDenseBiasReference} registered, and how often each ran. */
export interface DenseBiasReference {
  /** Calls per kernel name since registration. */
  readonly calls: Record<string, number>;
  /** Unregisters the kernels (`denseBias` then runs tfjs's ops again). */
  dispose(): void;
}

interface CpuLikeBackend {
  readSync(dataId: object): ArrayLike<number>;
  makeTensorInfo(shape: number[], dtype: 'float32', values: Float32Array): tf.TensorInfo;
}

/** act′ from the activation's output y: 1 − y² for tanh, step(y) for ReLU. */
function derivative(activation: DenseActivation, y: number): number {
  if (activation === 'tanh') return 1 - y * y;
  if (activation === 'relu') return y > 0 ? 1 : 0;
  return 1;
}

/**
 * Registers plain-JavaScript reference implementations of the `denseBias` kernels
 * (`MiaDenseBias` and its three gradient kernels, as their TSDoc specifies them, in float64) on a
 * backend that can read and make tensors synchronously (`cpu`), and counts their calls. `denseBias`
 * then takes its fused path there: tests of a model can check that its dense layers go through
 * `denseBias` (and which gradients the tape asks for) without a native backend.
 * @param backendName - the backend to register on. @default 'cpu'
 * @returns the call counts and `dispose()`.
 */
export function registerDenseBiasReference(backendName = 'cpu'): DenseBiasReference {
  const calls: Record<string, number> = {};
  const register = (
    kernelName: string,
    compute: (read: (t: tf.TensorInfo) => ArrayLike<number>, inputs: Record<string, tf.TensorInfo>, activation: DenseActivation) => [number[], Float32Array],
  ) => {
    tf.registerKernel({
      kernelName,
      backendName,
      kernelFunc: ({ inputs, backend, attrs }) => {
        calls[kernelName] = (calls[kernelName] ?? 0) + 1;
        const b = backend as unknown as CpuLikeBackend;
        const [shape, values] = compute(
          (t) => b.readSync(t.dataId),
          inputs as Record<string, tf.TensorInfo>,
          (attrs?.['activation'] ?? 'linear') as DenseActivation,
        );
        return b.makeTensorInfo(shape, 'float32', values);
      },
    });
  };
  // g = dy·act′(y), [rows, out].
  const gradient = (read: (t: tf.TensorInfo) => ArrayLike<number>, inputs: Record<string, tf.TensorInfo>, activation: DenseActivation) => {
    const [dy, y] = [read(inputs['dy']!), read(inputs['y']!)];
    return Float64Array.from(dy, (d, i) => d * derivative(activation, y[i]!));
  };
  register(DENSE_BIAS, (read, { x, weight, bias }, activation) => {
    const [rows, fin] = x!.shape as [number, number];
    const fout = weight!.shape[1]!;
    const [xv, wv, bv] = [read(x!), read(weight!), read(bias!)];
    const y = new Float32Array(rows * fout);
    for (let r = 0; r < rows; r++) {
      for (let o = 0; o < fout; o++) {
        let s = bv[o]!;
        for (let i = 0; i < fin; i++) s += xv[r * fin + i]! * wv[i * fout + o]!;
        y[r * fout + o] = activation === 'tanh' ? Math.tanh(s) : activation === 'relu' ? Math.max(s, 0) : s;
      }
    }
    return [[rows, fout], y];
  });
  register(DENSE_BIAS_GRAD_INPUT, (read, inputs, activation) => {
    const g = gradient(read, inputs, activation);
    const [fin, fout] = inputs['weight']!.shape as [number, number];
    const rows = g.length / fout;
    const wv = read(inputs['weight']!);
    const dx = new Float64Array(rows * fin);
    for (let r = 0; r < rows; r++) for (let i = 0; i < fin; i++) for (let o = 0; o < fout; o++) dx[r * fin + i]! += g[r * fout + o]! * wv[i * fout + o]!;
    return [[rows, fin], Float32Array.from(dx)];
  });
  register(DENSE_BIAS_GRAD_WEIGHT, (read, inputs, activation) => {
    const g = gradient(read, inputs, activation);
    const [rows, fin] = inputs['x']!.shape as [number, number];
    const fout = g.length / rows;
    const xv = read(inputs['x']!);
    const dw = new Float64Array(fin * fout);
    for (let r = 0; r < rows; r++) for (let i = 0; i < fin; i++) for (let o = 0; o < fout; o++) dw[i * fout + o]! += xv[r * fin + i]! * g[r * fout + o]!;
    return [[fin, fout], Float32Array.from(dw)];
  });
  register(DENSE_BIAS_GRAD_BIAS, (read, inputs, activation) => {
    const g = gradient(read, inputs, activation);
    const fout = inputs['dy']!.shape[1]!;
    const db = new Float64Array(fout);
    for (let k = 0; k < g.length; k++) db[k % fout]! += g[k]!;
    return [[fout], Float32Array.from(db)];
  });
  const names = [DENSE_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT, DENSE_BIAS_GRAD_BIAS];
  return {
    calls,
    dispose() {
      for (const name of names) if (tf.getKernel(name, backendName) !== undefined) tf.unregisterKernel(name, backendName);
    },
  };
}
