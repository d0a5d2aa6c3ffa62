import { InvalidArgumentError, describeValue } from '@mia/core';
import type { MembershipAttack } from '../attacks/attack';
import type { TokenLogprobRecord } from './token-logprob-record';

/**
 * A score-level attack on a language model: `score(records)` gives one membership score per
 * {@link TokenLogprobRecord} (higher = more likely member). These attacks fit nothing: `prepare()`
 * resolves at once and they have no decision rule of their own (evaluate the scores with
 * `auditScores` or `@mia/metrics`).
 */
export type TokenAttack = MembershipAttack<void, readonly TokenLogprobRecord[]>;

/** What {@link tokenAttack} builds an attack from. */
export interface TokenAttackSpec {
  /** Report name. */
  readonly name: string;
  /**
   * The score of one record (higher = more likely member). `where` names the record for error
   * messages (`min-k++.score: records[3] (id "a7")`); throw an `InvalidArgumentError` starting with
   * it when the record lacks a field the attack needs.
   */
  readonly statistic: (record: TokenLogprobRecord, where: string) => number;
}

/**
 * Builds a {@link TokenAttack} from a per-record statistic: `score` checks the records (a non-empty
 * array, each with at least one log-probability) and that every score is a finite number.
 *
 * @param spec - {@link TokenAttackSpec}.
 * @returns The attack.
 * @throws InvalidArgumentError on an empty name or a statistic that is not a function.
 */
export function tokenAttack(spec: TokenAttackSpec): TokenAttack {
  if (typeof spec?.name !== 'string' || spec.name === '')
    throw new InvalidArgumentError(`tokenAttack: name must be a non-empty string, got ${describeValue(spec?.name)}`);
  if (typeof spec.statistic !== 'function')
    throw new InvalidArgumentError(`tokenAttack: statistic must be a function (record, where) => number, got ${describeValue(spec.statistic)}`);
  const { name, statistic } = spec;
  return {
    name,
    prepare: () => Promise.resolve(),
    score(records) {
      if (!Array.isArray(records) || records.length === 0)
        throw new InvalidArgumentError(`${name}.score: records must be a non-empty array of token log-probability records, got ${describeValue(records)}`);
      return Float64Array.from(records, (record, i) => {
        const where = `${name}.score: records[${i}]${typeof record?.id === 'string' ? ` (id ${JSON.stringify(record.id)})` : ''}`;
        if (record?.logprobs === undefined || record.logprobs.length === 0)
          throw new InvalidArgumentError(`${where}: logprobs must hold at least one log-probability, got ${describeValue(record?.logprobs)}`);
        const value = statistic(record, where);
        if (!Number.isFinite(value)) throw new InvalidArgumentError(`${where}: the score must be a finite number, got ${describeValue(value)}`);
        return value;
      });
    },
    dispose: () => undefined,
  };
}

/**
 * The mean of the lowest ⌊k·T⌋ of T values (at least one value): Min-K%'s and Min-K%++'s
 * aggregation. The authors' code takes `np.sort(x)[:int(len(x) * k)]`, which is empty (a NaN score)
 * when k·T < 1; here such a record keeps its single lowest value.
 *
 * @param values - T ≥ 1 numbers.
 * @param fraction - k in (0, 1].
 * @returns The mean of the ⌊k·T⌋ (≥ 1) smallest values.
 * @throws InvalidArgumentError on no values or a fraction outside (0, 1].
 */
export function lowestFractionMean(values: ArrayLike<number>, fraction: number): number {
  if (!(fraction > 0 && fraction <= 1))
    throw new InvalidArgumentError(`lowestFractionMean: fraction must be a number in (0, 1], got ${describeValue(fraction)}`);
  if (values.length === 0) throw new InvalidArgumentError('lowestFractionMean: values must hold at least one number, got none');
  const count = Math.max(1, Math.floor(values.length * fraction));
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (let i = 0; i < count; i++) sum += sorted[i]!;
  return sum / count;
}
