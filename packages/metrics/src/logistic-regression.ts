/** The rows of `x` standardized with their own mean and std (a constant feature becomes 0), contiguous, and the transform (internal). */
function standardized(x: ArrayLike<number>, d: number, rows: Int32Array): { z: Float64Array; mean: Float64Array; scale: Float64Array } {
  const z = new Float64Array(rows.length * d);
  rows.forEach((i, t) => {
    for (let j = 0; j < d; j++) z[t * d + j] = x[i * d + j]!;
  });
  const mean = new Float64Array(d);
  const scale = new Float64Array(d);
  for (let t = 0; t < rows.length; t++) for (let j = 0; j < d; j++) mean[j]! += z[t * d + j]!;
  for (let j = 0; j < d; j++) mean[j]! /= rows.length;
  for (let t = 0; t < rows.length; t++) for (let j = 0; j < d; j++) scale[j]! += (z[t * d + j]! - mean[j]!) ** 2;
  for (let j = 0; j < d; j++) scale[j] = scale[j]! / rows.length > 1e-24 ? 1 / Math.sqrt(scale[j]! / rows.length) : 0;
  for (let t = 0; t < rows.length; t++) for (let j = 0; j < d; j++) z[t * d + j] = (z[t * d + j]! - mean[j]!) * scale[j]!;
  return { z, mean, scale };
}

/** `out = zᵀ r / n` (internal). */
function transposeProduct(z: Float64Array, d: number, r: Float64Array, out: Float64Array): void {
  out.fill(0);
  const n = r.length;
  for (let t = 0; t < n; t++) {
    const rt = r[t]!;
    const base = t * d;
    for (let j = 0; j < d; j++) out[j]! += rt * z[base + j]!;
  }
  for (let j = 0; j < d; j++) out[j]! /= n;
}

/** `out = z w` (internal). */
function product(z: Float64Array, d: number, w: Float64Array, out: Float64Array): void {
  for (let t = 0; t < out.length; t++) {
    let s = 0;
    const base = t * d;
    for (let j = 0; j < d; j++) s += w[j]! * z[base + j]!;
    out[t] = s;
  }
}

/** The largest eigenvalue of zᵀz / n by 12 power iterations (internal; an estimate from below). */
function largestEigenvalue(z: Float64Array, d: number, n: number): number {
  let v = Float64Array.from({ length: d }, (_, j) => 1 + ((j * 7919) % 13) / 13);
  const zv = new Float64Array(n);
  const next = new Float64Array(d);
  let value = 0;
  for (let it = 0; it < 12; it++) {
    const norm = Math.sqrt(v.reduce((s, e) => s + e * e, 0));
    if (norm === 0) return 0;
    v = v.map((e) => e / norm);
    product(z, d, v, zv);
    transposeProduct(z, d, zv, next);
    value = Math.sqrt(next.reduce((s, e) => s + e * e, 0));
    v = Float64Array.from(next);
  }
  return value;
}

/**
 * An L2-regularised logistic regression fitted on `rows` of row-major features (standardized on
 * those rows; Nesterov-accelerated gradient descent, step 1/L from a power-iteration estimate of the
 * curvature, stopping once the gradient is below 1e-5); returns the log-odds of any row (internal to `@mia/metrics`).
 */
export function fitLogistic(
  x: ArrayLike<number>,
  d: number,
  labels: Uint8Array,
  rows: Int32Array,
  { l2, iterations }: { l2: number; iterations: number },
): (row: number) => number {
  const { z, mean, scale } = standardized(x, d, rows);
  const n = rows.length;
  const y = Float64Array.from(rows, (i) => labels[i]!);
  // 1.25: the power iteration approaches the top eigenvalue from below; a step a little short of 1/L is safe.
  const step = 1 / (0.25 * 1.25 * largestEigenvalue(z, d, n) + l2);
  const positives = y.reduce((s, v) => s + v, 0);
  // The intercept starts at the log-odds of the fold's members, so the weights only learn the shift.
  const prior = Math.log(positives / (n - positives));
  let [w, bias] = [new Float64Array(d), prior];
  let [previous, previousBias] = [new Float64Array(d), prior];
  const look = new Float64Array(d);
  const margins = new Float64Array(n);
  const gradient = new Float64Array(d);
  for (let t = 1; t <= iterations; t++) {
    const momentum = (t - 1) / (t + 2);
    for (let j = 0; j < d; j++) look[j] = w[j]! + momentum * (w[j]! - previous[j]!);
    const lookBias = bias + momentum * (bias - previousBias);
    product(z, d, look, margins);
    let biasGradient = 0;
    for (let r = 0; r < n; r++) {
      margins[r] = 1 / (1 + Math.exp(-(margins[r]! + lookBias))) - y[r]!;
      biasGradient += margins[r]!;
    }
    transposeProduct(z, d, margins, gradient);
    let largest = Math.abs(biasGradient / n);
    for (let j = 0; j < d; j++) largest = Math.max(largest, Math.abs(gradient[j]! + l2 * look[j]!));
    [previous, w] = [w, previous];
    for (let j = 0; j < d; j++) w[j] = look[j]! - step * (gradient[j]! + l2 * look[j]!);
    previousBias = bias;
    bias = lookBias - (step * biasGradient) / n;
    // Converged: the remaining steps would not move the ranking (a deterministic stop, so the same seed gives the same scores).
    if (largest < 1e-5) break;
  }
  const v = Float64Array.from(w, (wj, j) => wj * scale[j]!);
  let offset = bias;
  for (let j = 0; j < d; j++) offset -= v[j]! * mean[j]!;
  return (row) => {
    let s = offset;
    for (let j = 0; j < d; j++) s += v[j]! * x[row * d + j]!;
    return s;
  };
}
