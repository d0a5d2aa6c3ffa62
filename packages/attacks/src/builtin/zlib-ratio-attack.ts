import { InvalidArgumentError, describeValue, optionsSchema } from '@mia/core';
import { tokenAttack, type TokenAttack } from '../index';

/** Options of {@link zlibRatioAttack}. */
export interface ZlibRatioAttackOptions {
  /** Report name. @default 'zlib' */
  readonly name?: string;
}

/** The (empty) params schema of {@link zlibRatioAttack}. */
export const zlibRatioOptionsSchema = optionsSchema({});

/**
 * The zlib attack: the target's log-perplexity (mean NLL, natural log) divided by the zlib entropy
 * of the text (its zlib-compressed length in bytes), negated so that higher = more likely member:
 * score = `−NLL / zlibBytes`. Text the model finds easy but zlib does not is suspicious.
 * Each record needs `zlibBytes` (fill it from `text` with `addZlibBytes`).
 *
 * @param options - {@link ZlibRatioAttackOptions}.
 * @returns A {@link TokenAttack}; `score` throws, naming the record, when one has no `zlibBytes`.
 * @see Carlini et al., "Extracting Training Data from Large Language Models", USENIX Security 2021,
 *   §5.2 ("zlib": the ratio of the log-perplexity and the zlib entropy); MIMIR's `zlib` attack.
 */
export function zlibRatioAttack(options: ZlibRatioAttackOptions = {}): TokenAttack {
  const { name = 'zlib', ...params } = options;
  zlibRatioOptionsSchema.parse(params, 'zlibRatioAttack');
  if (typeof name !== 'string' || name === '') throw new InvalidArgumentError(`zlibRatioAttack: name must be a non-empty string, got ${describeValue(name)}`);
  return tokenAttack({
    name,
    statistic: (record, where) => {
      if (record.zlibBytes === undefined)
        throw new InvalidArgumentError(
          `${where}: zlibBytes must be a positive integer (the zlib-compressed length of the text; fill it with addZlibBytes), got undefined`,
        );
      return record.logprobs.reduce((a, v) => a + v, 0) / record.logprobs.length / record.zlibBytes;
    },
  });
}
