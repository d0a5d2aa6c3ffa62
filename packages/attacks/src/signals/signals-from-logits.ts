import type { ModelSignals } from './model-signals';
import { checkNumClasses, toFiniteArray, toLabelArray } from './validate-input';
import { InvalidArgumentError, ShapeMismatchError } from '@mia/core';

/** Options of {@link signalsFromLogits}. */
export interface SignalsFromLogitsOptions {
  /**
   * Compute the loss from the posterior clipped to `[lossClip, 1 − lossClip]`, like CCLr/PASTr
   * (`1e-12` there), instead of the stable logsumexp form (PROTOCOL A6).
   * @default undefined (from logits)
   */
  readonly lossClip?: number;
}

const LOG_FLOOR = 1e-30;
const safeLog = (v: number): number => Math.log(Math.max(v, LOG_FLOOR));

/**
 * Every per-example signal of docs/protocol.md §3.0 from plain logits, so a model from any framework can
 * be audited: loss (stable logsumexp), posterior, `p_y`, `max p`, entropy, modified entropy, φ and
 * correctness. Computed in float64.
 *
 * @param logits - Row-major logits `[n, numClasses]` (finite numbers).
 * @param labels - True labels, length n, integers in `[0, numClasses)`.
 * @param numClasses - C ≥ 2.
 * @param options - {@link SignalsFromLogitsOptions}.
 * @returns The {@link ModelSignals}.
 * @throws ShapeMismatchError when `logits.length ≠ n·C`; InvalidArgumentError on NaN/infinite
 *   logits, bad labels, C < 2 or no examples.
 * @see docs/protocol.md §3.0 (signal table); Song & Mittal 2021 Eq. (modified entropy); LiRA Eq. 4 (φ).
 */
export function signalsFromLogits(
  logits: ArrayLike<number>,
  labels: ArrayLike<number>,
  numClasses: number,
  options: SignalsFromLogitsOptions = {},
): ModelSignals {
  const fn = 'signalsFromLogits';
  const c = checkNumClasses(fn, numClasses);
  const z = toFiniteArray(fn, 'logits', logits);
  if (z.length % c !== 0) {
    throw new ShapeMismatchError(`${fn}: logits must have n·numClasses entries (numClasses = ${c}), got ${z.length}`);
  }
  const n = z.length / c;
  const y = toLabelArray(fn, labels, c, n);
  const clip = options.lossClip;
  if (clip !== undefined && !(clip >= 0 && clip < 0.5)) {
    throw new InvalidArgumentError(`${fn}: lossClip must be a number in [0, 0.5), got ${clip}`);
  }
  const probabilities = new Float32Array(n * c);
  const loss = new Float64Array(n);
  const trueProbability = new Float64Array(n);
  const phi = new Float64Array(n);
  const maxProbability = new Float64Array(n);
  const entropy = new Float64Array(n);
  const modifiedEntropy = new Float64Array(n);
  const correct = new Uint8Array(n);
  const p = new Float64Array(c);
  for (let i = 0; i < n; i++) {
    const row = i * c;
    const label = y[i]!;
    let max = -Infinity;
    let argmax = 0;
    let maxOther = -Infinity;
    for (let j = 0; j < c; j++) {
      const v = z[row + j]!;
      if (v > max) {
        max = v;
        argmax = j;
      }
      if (j !== label && v > maxOther) maxOther = v;
    }
    let sum = 0;
    let sumOther = 0;
    for (let j = 0; j < c; j++) {
      sum += Math.exp(z[row + j]! - max);
      if (j !== label) sumOther += Math.exp(z[row + j]! - maxOther);
    }
    const lse = max + Math.log(sum);
    let h = 0;
    let mentr = 0;
    for (let j = 0; j < c; j++) {
      p[j] = Math.exp(z[row + j]! - lse);
      probabilities[row + j] = p[j]!;
      h -= p[j]! * safeLog(p[j]!);
      if (j !== label) mentr -= p[j]! * safeLog(1 - p[j]!);
    }
    const py = p[label]!;
    mentr -= (1 - py) * safeLog(py);
    loss[i] = clip === undefined ? lse - z[row + label]! : -Math.log(Math.min(Math.max(py, clip), 1 - clip));
    trueProbability[i] = py;
    phi[i] = z[row + label]! - (maxOther + Math.log(sumOther));
    maxProbability[i] = Math.exp(max - lse);
    entropy[i] = h;
    modifiedEntropy[i] = mentr;
    correct[i] = argmax === label ? 1 : 0;
  }
  return {
    size: n,
    numClasses: c,
    labels: y,
    logits: Float32Array.from(z),
    probabilities,
    loss,
    trueProbability,
    phi,
    maxProbability,
    entropy,
    modifiedEntropy,
    correct,
  };
}
