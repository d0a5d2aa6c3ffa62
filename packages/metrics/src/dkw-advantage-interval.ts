import { checkConfidence, type ConfidenceInterval, type ConfidenceOptions } from './clopper-pearson';
import { MetricsError } from './metrics-error';
import { checkInteger, describe } from './validate';

/**
 * A distribution-free confidence interval of the best-threshold advantage `max_t (TPR(t) − FPR(t))`
 * from the Dvoretzky–Kiefer–Wolfowitz inequality with Massart's constant: with probability at least
 * `1 − α/4` each, neither empirical distribution (members', non-members') strays more than
 * `ε_k = sqrt(ln(4/α) / (2 n_k))` from the true one on the side that matters, at every threshold at
 * once; so `[estimate − ε_M − ε_N, estimate + ε_M + ε_N]` (clipped to [0, 1]) holds the true best
 * advantage with probability ≥ `1 − α`, each end failing with probability ≤ α/2. Valid at every
 * sample size and for any score distribution (ties included), and it covers the choice of the best
 * threshold on the same data; wider than a bootstrap interval (about twice at 10⁵ examples per
 * side), but it costs nothing to compute, where a bootstrap costs a pass over the data per resample.
 *
 * @param advantage - The best-threshold advantage measured on the data, in [0, 1] (e.g. `summarizeScores(…).advantage`).
 * @param numMembers - Members it was measured on (a positive integer).
 * @param numNonMembers - Non-members it was measured on (a positive integer).
 * @param options - `confidence`, two-sided, in (0, 1). @default 0.95
 * @returns The estimate and the interval.
 * @throws MetricsError on an advantage outside [0, 1], counts that are not positive integers, or a bad confidence.
 * @see Massart (1990), "The tight constant in the Dvoretzky–Kiefer–Wolfowitz inequality", Ann. Probab. 18(3).
 */
export function dkwAdvantageInterval(advantage: number, numMembers: number, numNonMembers: number, options: ConfidenceOptions = {}): ConfidenceInterval {
  const fn = 'dkwAdvantageInterval';
  if (typeof advantage !== 'number' || !(advantage >= 0 && advantage <= 1))
    throw new MetricsError(`${fn}: advantage must be a number in [0, 1], got ${describe(advantage)}`);
  checkInteger(fn, 'numMembers', numMembers, 1);
  checkInteger(fn, 'numNonMembers', numNonMembers, 1);
  const confidence = checkConfidence(fn, options.confidence ?? 0.95);
  const log = Math.log(4 / (1 - confidence));
  const margin = Math.sqrt(log / (2 * numMembers)) + Math.sqrt(log / (2 * numNonMembers));
  return { estimate: advantage, lower: Math.max(0, advantage - margin), upper: Math.min(1, advantage + margin), confidence };
}
