import { InvalidArgumentError, checkNumberInRange } from '@mia/core';

/**
 * The smallest cross-entropy that normalised logits `z̃ = z/(1 + t‖z‖)` can reach:
 * `‖z̃‖ < 1/t`, so `CE ≥ log(1 + (C − 1)·exp(−(1/t)·√(C/(C − 1))))` (≈ 1.42 for t = 1, C = 10;
 * ≈ 3.62 for t = 1, C = 100). `t = 0` (no normalisation) gives 0.
 *
 * @param t - logit normalisation factor τ_rce ≥ 0.
 * @param numClasses - C ≥ 2.
 * @see docs/protocol.md §7 A18 (floor pitfall); CRL Eq. 5.
 */
export function logitNormalizationFloor(t: number, numClasses: number): number {
  checkNumberInRange('logitNormalizationFloor', 't', t, 0);
  if (!Number.isInteger(numClasses) || numClasses < 2) {
    throw new InvalidArgumentError(`logitNormalizationFloor: numClasses must be an integer ≥ 2, got ${numClasses}`);
  }
  if (t === 0) return 0;
  const c = numClasses;
  return Math.log1p((c - 1) * Math.exp(-(1 / t) * Math.sqrt(c / (c - 1))));
}

/**
 * Throws unless the ImpRelaxLoss threshold `alpha` lies above the floor of
 * {@link logitNormalizationFloor}: below it the loss can never fall under `alpha`, so the
 * relaxation never activates (docs/protocol.md A18).
 *
 * @param fn - calling function, for the message.
 * @throws InvalidArgumentError naming the floor, t and C.
 */
export function checkAboveLogitFloor(fn: string, alpha: number, t: number, numClasses: number): void {
  const floor = logitNormalizationFloor(t, numClasses);
  if (t > 0 && !(alpha > floor)) {
    throw new InvalidArgumentError(
      `${fn}: alpha must be greater than the logit-normalisation floor log(1 + (C−1)·exp(−√(C/(C−1))/t)) = ${floor.toFixed(4)} for t = ${t}, C = ${numClasses} (docs/protocol.md A18), got ${alpha}`,
    );
  }
}
