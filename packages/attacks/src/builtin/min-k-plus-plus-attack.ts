import { InvalidArgumentError, describeValue, option, optionsSchema } from '@mia/core';
import { lowestFractionMean, tokenAttack, type TokenAttack } from '../index';

/** Options of {@link minKPlusPlusAttack}. */
export interface MinKPlusPlusAttackOptions {
  /** Fraction k of the tokens averaged: the ⌊k·T⌋ (≥ 1) lowest normalised scores. @default 0.2 */
  readonly k?: number;
  /** Report name. @default 'min-k++' */
  readonly name?: string;
}

/** The params schema of {@link minKPlusPlusAttack}. */
export const minKPlusPlusOptionsSchema = optionsSchema({
  k: option.number({ min: 0, max: 1, exclusiveMin: true, default: 0.2, description: 'fraction of the lowest normalised token scores averaged' }),
});

/**
 * Min-K%++: each token's log-probability normalised by the target's next-token distribution at its
 * position, `(log p(x_t | x_<t) − μ_t) / σ_t` with μ_t, σ_t the mean and standard deviation of
 * `log p(z | x_<t)` for z ∼ p(·|x_<t) (the record's `mu`, `sigma`), then the mean of the ⌊k·T⌋
 * (≥ 1) lowest (higher = more likely member: training tokens sit at local maxima of the likelihood).
 *
 * @param options - {@link MinKPlusPlusAttackOptions}; `k` validated here.
 * @returns A {@link TokenAttack}; `score` throws, naming the record, when one has no `mu`/`sigma`.
 * @see Zhang et al., "Min-K%++: Improved Baseline for Detecting Pre-Training Data from Large Language
 *   Models", arXiv 2404.02936, 2024; their code's `mink_plus` (whose `sigma` variable is the variance: σ here is its square root).
 */
export function minKPlusPlusAttack(options: MinKPlusPlusAttackOptions = {}): TokenAttack {
  const { name = 'min-k++', ...params } = options;
  const { k } = minKPlusPlusOptionsSchema.parse(params, 'minKPlusPlusAttack');
  if (typeof name !== 'string' || name === '')
    throw new InvalidArgumentError(`minKPlusPlusAttack: name must be a non-empty string, got ${describeValue(name)}`);
  return tokenAttack({
    name,
    statistic: (record, where) => {
      const { logprobs, mu, sigma } = record;
      if (mu === undefined || sigma === undefined || mu.length !== logprobs.length || sigma.length !== logprobs.length)
        throw new InvalidArgumentError(
          `${where}: mu and sigma must each hold ${logprobs.length} values (the next-token distribution's mean and standard deviation of log p per token), got ${describeValue(mu?.length)} and ${describeValue(sigma?.length)}`,
        );
      return lowestFractionMean(
        logprobs.map((v, t) => (v - mu[t]!) / sigma[t]!),
        k,
      );
    },
  });
}
