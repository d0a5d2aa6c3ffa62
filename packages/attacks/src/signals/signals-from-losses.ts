import { InvalidArgumentError } from '@mia/core';
import type { ModelSignals } from './model-signals';
import { signalsFromLogits } from './signals-from-logits';
import { checkNumClasses, toFiniteArray, toLabelArray } from './validate-input';

/**
 * Signals from per-example cross-entropy losses alone (a model audited from exported losses).
 * Derives `p_y = exp(−ℓ)` and `φ = log(p_y/(1−p_y)) = −log(expm1(ℓ))` (ℓ floored at 1e-30 so φ
 * stays finite). Enough for the loss and confidence attacks, LiRA, RMIA (softmax signal) and
 * Attack-R/P; attacks that need logits throw.
 *
 * @param losses - Per-example cross-entropy, finite and ≥ 0.
 * @param labels - True labels, integers in `[0, numClasses)`.
 * @param numClasses - C ≥ 2 (used by the per-class thresholds).
 * @returns {@link ModelSignals} without logit-based fields.
 * @throws InvalidArgumentError on NaN/negative losses, bad labels or no examples; ShapeMismatchError on different lengths.
 * @see docs/protocol.md §3.0, §3.8 (φ), §3.10 (`ℓ = log(1 + e^{−φ})`).
 */
export function signalsFromLosses(losses: ArrayLike<number>, labels: ArrayLike<number>, numClasses: number): ModelSignals {
  const fn = 'signalsFromLosses';
  const c = checkNumClasses(fn, numClasses);
  const loss = toFiniteArray(fn, 'losses', losses);
  const y = toLabelArray(fn, labels, c, loss.length);
  const trueProbability = new Float64Array(loss.length);
  const phi = new Float64Array(loss.length);
  loss.forEach((l, i) => {
    if (l < 0) throw new InvalidArgumentError(`${fn}: losses[${i}] must be ≥ 0 (a cross-entropy), got ${l}`);
    trueProbability[i] = Math.exp(-l);
    phi[i] = -Math.log(Math.expm1(Math.max(l, 1e-30)));
  });
  return { size: loss.length, numClasses: c, labels: y, loss, trueProbability, phi };
}

/**
 * Signals from posterior probabilities `[n, C]` (rows summing to 1 within 1e-3): the logits are
 * taken as `log(max(p, 1e-30))`, so softmax recovers p; the loss is `−log p_y` (clipped at
 * `lossClip`, default 1e-12 as in CCLr/PASTr, PROTOCOL A6).
 *
 * @throws InvalidArgumentError when a probability is outside [0, 1] or a row does not sum to 1.
 * @see docs/protocol.md §3.0, §7 A6.
 */
export function signalsFromProbabilities(
  probabilities: ArrayLike<number>,
  labels: ArrayLike<number>,
  numClasses: number,
  options: { readonly lossClip?: number } = {},
): ModelSignals {
  const fn = 'signalsFromProbabilities';
  const c = checkNumClasses(fn, numClasses);
  const p = toFiniteArray(fn, 'probabilities', probabilities);
  const logits = new Float64Array(p.length);
  for (let row = 0; row + c <= p.length; row += c) {
    let sum = 0;
    for (let j = 0; j < c; j++) {
      const v = p[row + j]!;
      if (v < 0 || v > 1) throw new InvalidArgumentError(`${fn}: probabilities[${row + j}] must be in [0, 1], got ${v}`);
      sum += v;
      logits[row + j] = Math.log(Math.max(v, 1e-30));
    }
    if (Math.abs(sum - 1) > 1e-3) throw new InvalidArgumentError(`${fn}: row ${row / c} of probabilities must sum to 1, got ${sum}`);
  }
  return signalsFromLogits(logits, labels, c, { lossClip: options.lossClip ?? 1e-12 });
}
