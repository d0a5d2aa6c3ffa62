import * as tf from '@tensorflow/tfjs-core';

/**
 * The textbook DP-SGD update without noise, for tests: one `tf.variableGrads` per example, the
 * per-example norm and clip factor in float64 on the host, Σ gᵢ·min(1, C/(‖gᵢ‖ + 1e-6)) / divisor.
 * Also returns the per-example norms, so tests can check that some examples were clipped and some not.
 */
export function naiveClippedMean(
  lossOf: (i: number) => tf.Scalar,
  count: number,
  variables: readonly tf.Variable[],
  clipNorm: number,
  divisor: number,
): { grads: Map<string, Float64Array>; norms: number[] } {
  const grads = new Map(variables.map((v) => [v.name, new Float64Array(v.size)]));
  const norms: number[] = [];
  for (let i = 0; i < count; i++) {
    const { value, grads: g } = tf.variableGrads(() => lossOf(i), variables as tf.Variable[]);
    const values = variables.map((v) => (g[v.name] === undefined ? new Float32Array(v.size) : g[v.name]!.dataSync()));
    tf.dispose([value, ...Object.values(g)]);
    let sq = 0;
    for (const arr of values) for (const a of arr) sq += a! * a!;
    const norm = Math.sqrt(sq);
    norms.push(norm);
    const factor = Math.min(1, clipNorm / (norm + 1e-6));
    variables.forEach((v, k) => {
      const acc = grads.get(v.name)!;
      values[k]!.forEach((a, j) => (acc[j] = acc[j]! + (a * factor) / divisor));
    });
  }
  return { grads, norms };
}

/** Max |a − b| over all coordinates, relative to max |b| (or absolute when b is ~0). */
export function maxRelativeDifference(a: Float32Array | Float64Array, b: Float32Array | Float64Array): number {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < b.length; i++) {
    diff = Math.max(diff, Math.abs(a[i]! - b[i]!));
    scale = Math.max(scale, Math.abs(b[i]!));
  }
  return diff / Math.max(scale, 1e-12);
}
