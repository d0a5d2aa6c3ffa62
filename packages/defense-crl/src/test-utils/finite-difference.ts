import * as tf from '@tensorflow/tfjs-core';

/**
 * Central finite-difference gradient of a scalar function of one tensor (float32, so use a step
 * around 1e-2 … 1e-3 and compare with a matching tolerance).
 */
export function finiteDifferenceGradient(f: (x: tf.Tensor) => tf.Scalar, x: tf.Tensor, h = 1e-2): Float32Array {
  const base = x.dataSync().slice() as Float32Array;
  const out = new Float32Array(base.length);
  for (let k = 0; k < base.length; k++) {
    const eval1 = (delta: number) =>
      tf.tidy(() => {
        const v = base.slice();
        v[k]! += delta;
        return f(tf.tensor(v, x.shape)).dataSync()[0]!;
      });
    out[k] = (eval1(h) - eval1(-h)) / (2 * h);
  }
  return out;
}
