import type { OptionsSchema } from '@mia/core';
import {
  llmLossAttack,
  llmLossOptionsSchema,
  minKAttack,
  minKOptionsSchema,
  minKPlusPlusAttack,
  minKPlusPlusOptionsSchema,
  referenceRatioAttack,
  referenceRatioOptionsSchema,
  zlibRatioAttack,
  zlibRatioOptionsSchema,
  type TokenAttack,
  type TokenLogprobRecord,
} from '@mia/attacks';

/**
 * A score-level attack on a language model's per-token log-probabilities, as `mia attack --scores
 * <file.jsonl>` runs it: a name, the schema of its params, the record fields it reads besides
 * `logprobs`, and how it is built. These attacks score exported log-probabilities; an experiment
 * config (which trains classifiers) cannot list them.
 */
export interface TokenAttackDefinition<O = Record<string, unknown>> {
  readonly name: string;
  /** Short description for reports and `mia schema`. */
  readonly description: string;
  /** Validates `params` (unknown keys are errors) and fills the defaults. */
  readonly schema: OptionsSchema<O>;
  /** What every record must have for the attack to run, in words, e.g. `"mu" and "sigma"`. */
  readonly requires?: string;
  /** Whether a record has what the attack reads (absent: every record does). */
  has?(record: TokenLogprobRecord): boolean;
  /** Builds the attack with its parsed params. */
  create(options: O): TokenAttack;
}

const define = <O>(definition: TokenAttackDefinition<O>): TokenAttackDefinition<O> => definition;

/** The language-model attacks of `mia attack --scores`, in the order they are reported (cheapest signal first). */
export const TOKEN_ATTACKS: readonly TokenAttackDefinition<never>[] = [
  define({
    name: 'llm-loss',
    description: 'loss attack: the mean per-token log-probability, −NLL (Yeom et al. 2018; Carlini et al. 2021)',
    schema: llmLossOptionsSchema,
    create: () => llmLossAttack(),
  }),
  define({
    name: 'zlib',
    description: 'zlib attack: −NLL divided by the zlib-compressed length of the text (Carlini et al. 2021)',
    schema: zlibRatioOptionsSchema,
    requires: '"text" or "zlibBytes"',
    has: (record) => record.zlibBytes !== undefined || typeof record.text === 'string',
    create: () => zlibRatioAttack(),
  }),
  define({
    name: 'min-k',
    description: 'Min-K% Prob: the mean log-probability of the k·T least likely tokens (Shi et al. 2024)',
    schema: minKOptionsSchema,
    create: (options) => minKAttack(options),
  }),
  define({
    name: 'min-k++',
    description: 'Min-K%++: the mean of the k·T lowest (log p − μ)/σ, normalised by the next-token distribution (Zhang et al. 2024)',
    schema: minKPlusPlusOptionsSchema,
    requires: '"mu" and "sigma"',
    has: (record) => record.mu !== undefined && record.sigma !== undefined,
    create: (options) => minKPlusPlusAttack(options),
  }),
  define({
    name: 'reference-ratio',
    description: "reference attack: the target's NLL calibrated by a reference model's, NLL_ref − NLL or −NLL / NLL_ref (Carlini et al. 2021)",
    schema: referenceRatioOptionsSchema,
    requires: '"refLogprobs"',
    has: (record) => record.refLogprobs !== undefined,
    create: (options) => referenceRatioAttack(options),
  }),
] as unknown as readonly TokenAttackDefinition<never>[];

/** Names of {@link TOKEN_ATTACKS}, in order. */
export const TOKEN_ATTACK_NAMES: readonly string[] = TOKEN_ATTACKS.map((d) => d.name);
