import { InvalidArgumentError, describeValue, option, optionsSchema } from '@mia/core';
import { tokenAttack, type TokenAttack } from '../index';

/** Options of {@link referenceRatioAttack}. */
export interface ReferenceRatioAttackOptions {
  /**
   * `'difference'`: score = NLL_ref − NLL_target (the target's loss calibrated by a reference model's;
   * MIMIR's `ref` attack); `'ratio'`: score = −NLL_target / NLL_ref (Carlini et al.'s ratio
   * of log-perplexities). @default 'difference'
   */
  readonly form?: 'difference' | 'ratio';
  /** Report name. @default 'reference-ratio' */
  readonly name?: string;
}

/** The params schema of {@link referenceRatioAttack}. */
export const referenceRatioOptionsSchema = optionsSchema({
  form: option.choice(['difference', 'ratio'], { default: 'difference', description: 'NLL_ref − NLL_target, or −NLL_target / NLL_ref' }),
});

/**
 * The reference-model attack: the target's mean NLL compared with a reference model's on the same text
 * (each under its own tokenisation: `logprobs` and `refLogprobs` may differ in length), so that text
 * that is easy for every model does not look like a member. Higher = more likely member.
 *
 * @param options - {@link ReferenceRatioAttackOptions}; `form` validated here.
 * @returns A {@link TokenAttack}; `score` throws, naming the record, when one has no `refLogprobs`
 *   (or, for `'ratio'`, a reference NLL of 0).
 * @see Carlini et al., "Extracting Training Data from Large Language Models", USENIX Security 2021, §5.2
 *   (comparison with a smaller model); Mireshghallah et al., "Quantifying Privacy Risks of Masked
 *   Language Models Using Membership Inference Attacks", EMNLP 2022 (reference-calibrated loss).
 */
export function referenceRatioAttack(options: ReferenceRatioAttackOptions = {}): TokenAttack {
  const { name = 'reference-ratio', ...params } = options;
  const { form } = referenceRatioOptionsSchema.parse(params, 'referenceRatioAttack');
  if (typeof name !== 'string' || name === '')
    throw new InvalidArgumentError(`referenceRatioAttack: name must be a non-empty string, got ${describeValue(name)}`);
  const mean = (v: Float64Array) => v.reduce((a, x) => a + x, 0) / v.length;
  return tokenAttack({
    name,
    statistic: (record, where) => {
      if (record.refLogprobs === undefined || record.refLogprobs.length === 0)
        throw new InvalidArgumentError(
          `${where}: refLogprobs must hold the reference model's log-probabilities of the record, got ${describeValue(record.refLogprobs)}`,
        );
      const nll = -mean(record.logprobs);
      const refNll = -mean(record.refLogprobs);
      if (form === 'difference') return refNll - nll;
      if (refNll === 0) throw new InvalidArgumentError(`${where}: the reference NLL must be > 0 for form 'ratio', got 0`);
      return -nll / refNll;
    },
  });
}
