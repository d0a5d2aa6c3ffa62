import { InvalidArgumentError, describeValue, option, optionsSchema } from '@mia/core';
import { lowestFractionMean, tokenAttack, type TokenAttack } from '../index';

/** Options of {@link minKAttack}. */
export interface MinKAttackOptions {
  /** Fraction k of the tokens averaged: the ⌊k·T⌋ (≥ 1) least likely. @default 0.2 */
  readonly k?: number;
  /** Report name. @default 'min-k' */
  readonly name?: string;
}

/** The params schema of {@link minKAttack}. */
export const minKOptionsSchema = optionsSchema({
  k: option.number({ min: 0, max: 1, exclusiveMin: true, default: 0.2, description: 'fraction of the least likely tokens averaged' }),
});

/**
 * Min-K% Prob: the mean log-probability of the k % least likely tokens of the record,
 * `(1/|min-k|) Σ_{x_t ∈ min-k} log p(x_t | x_<t)` (higher = more likely member). ⌊k·T⌋ tokens, at
 * least one (the authors' code gives NaN when k·T < 1).
 *
 * @param options - {@link MinKAttackOptions}; `k` validated here.
 * @returns A {@link TokenAttack}.
 * @throws InvalidArgumentError naming a bad option.
 * @see Shi et al., "Detecting Pretraining Data from Large Language Models", ICLR 2024 (Min-K% Prob).
 */
export function minKAttack(options: MinKAttackOptions = {}): TokenAttack {
  const { name = 'min-k', ...params } = options;
  const { k } = minKOptionsSchema.parse(params, 'minKAttack');
  if (typeof name !== 'string' || name === '') throw new InvalidArgumentError(`minKAttack: name must be a non-empty string, got ${describeValue(name)}`);
  return tokenAttack({ name, statistic: (record) => lowestFractionMean(record.logprobs, k) });
}
