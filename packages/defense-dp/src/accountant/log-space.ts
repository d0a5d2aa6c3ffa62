// Log-space arithmetic of the RDP accountant, ported from TensorFlow Privacy's `rdp_accountant.py`
// (`_log_add`, `_log_sub`, `_log_erfc`; the same functions are in Opacus'
// `opacus/accountants/analysis/rdp.py`), Apache License 2.0. Zero is `-Infinity`.

/** `log(exp(logX) + exp(logY))` without overflow. @internal */
export function logAdd(logX: number, logY: number): number {
  const a = Math.min(logX, logY);
  const b = Math.max(logX, logY);
  if (a === -Infinity) return b; // adding 0
  return Math.log1p(Math.exp(a - b)) + b;
}

/**
 * `log(exp(logX) − exp(logY))`; the difference must be non-negative.
 * @throws RangeError when `logX < logY` (as the reference's `ValueError`).
 * @internal
 */
export function logSub(logX: number, logY: number): number {
  if (logX < logY) throw new RangeError(`logSub: the result of a subtraction must be non-negative, got log-values ${logX} − ${logY}`);
  if (logY === -Infinity) return logX; // subtracting 0
  if (logX === logY) return -Infinity;
  const e = Math.expm1(logX - logY);
  // Python's math.expm1 raises OverflowError here, and the reference then returns logX.
  return Number.isFinite(e) ? Math.log(e) + logY : logX;
}

const LOG_SQRT_PI = 0.5 * Math.log(Math.PI);

/** erf(x) for |x| < 2 by the series `2/√π·e^{−x²}·Σ 2ⁿx^{2n+1}/(2n+1)!!` (all terms of one sign: no cancellation). */
function erfSeries(x: number): number {
  const x2 = 2 * x * x;
  let term = x;
  let sum = x;
  for (let n = 1; n < 200 && Math.abs(term) > 1e-17 * Math.abs(sum); n++) {
    term *= x2 / (2 * n + 1);
    sum += term;
  }
  return (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
}

/** log erfc(x) for x ≥ 2 by the continued fraction erfc(x) = e^{−x²}/√π · 1/(x + ½/(x + 1/(x + 3⁄2/(x + …)))) (Abramowitz & Stegun 7.1.14). */
function logErfcContinuedFraction(x: number): number {
  let t = x;
  for (let k = 240; k >= 1; k--) t = x + k / 2 / t;
  return -x * x - LOG_SQRT_PI - Math.log(t);
}

/**
 * `log(erfc(x))`, accurate in the far tail (where erfc underflows) as the reference's
 * `log(2) + log_ndtr(−x·√2)`.
 * @internal
 */
export function logErfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x === Infinity) return -Infinity;
  if (x === -Infinity) return Math.LN2;
  if (x >= 2) return logErfcContinuedFraction(x);
  if (x > -2) return Math.log1p(-erfSeries(x));
  // erfc(x) = 2 − erfc(−x)
  return Math.log(2 - Math.exp(logErfcContinuedFraction(-x)));
}
