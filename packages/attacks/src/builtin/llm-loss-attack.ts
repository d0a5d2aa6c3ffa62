import { InvalidArgumentError, describeValue, optionsSchema } from '@mia/core';
import { tokenAttack, type TokenAttack } from '../index';

/** Options of {@link llmLossAttack}. */
export interface LlmLossAttackOptions {
  /** Report name. @default 'llm-loss' */
  readonly name?: string;
}

/** The (empty) params schema of {@link llmLossAttack}: a config's `params` must be `{}`. */
export const llmLossOptionsSchema = optionsSchema({});

/**
 * The loss attack on a language model: score = −NLL = the mean per-token log-probability
 * `(1/T) Σ_t log p(x_t | x_<t)` of the record under the target (lower loss = more likely member).
 *
 * @param options - {@link LlmLossAttackOptions}.
 * @returns A {@link TokenAttack}.
 * @throws InvalidArgumentError on an unknown option or an empty name.
 * @see Yeom et al., "Privacy Risk in Machine Learning", CSF 2018 (the loss attack); Carlini et al.,
 *   "Extracting Training Data from Large Language Models", USENIX Security 2021, §5.2 (perplexity).
 */
export function llmLossAttack(options: LlmLossAttackOptions = {}): TokenAttack {
  const { name = 'llm-loss', ...params } = options;
  llmLossOptionsSchema.parse(params, 'llmLossAttack');
  if (typeof name !== 'string' || name === '') throw new InvalidArgumentError(`llmLossAttack: name must be a non-empty string, got ${describeValue(name)}`);
  return tokenAttack({ name, statistic: (record) => record.logprobs.reduce((a, v) => a + v, 0) / record.logprobs.length });
}
