import { InvalidArgumentError } from '@mia/core';
import type { CellFormat, Claim, ClaimVerdict, ColumnDecision, Decision, Direction } from './types';

/**
 * Where a standard error comes from: the runner's bootstrap, a binomial approximation (older results),
 * repeated seeds, or the spread over a model's parameters (claims about one model's weights or
 * sensitivities: the resolution of the measurement, not the spread over training seeds), or the
 * sample spread of a mean over evaluation points.
 */
export type SeSource = 'bootstrap' | 'binomial' | 'seeds' | 'parameters' | 'sample';

const SOURCE_TEXT: Readonly<Record<Exclude<SeSource, 'bootstrap'>, string>> = {
  binomial: 'a binomial approximation sqrt(p(1−p)/n) (results without bootstrap SEs)',
  seeds: 'repeated seeds',
  parameters: "the model's parameters (one training seed)",
  sample: 'the sample standard deviation over the points / √n (one training seed)',
};

/** A measured number with its standard error (absent when none is known). */
export interface Estimate {
  readonly value: number;
  readonly se?: number;
  readonly seSource?: SeSource;
}

/** Options of {@link compareEstimates}. */
export interface CompareOptions {
  readonly direction: Direction;
  /**
   * What the claim allows: it states `A − B > offset` ('greater') or `A − B < offset` ('less');
   * e.g. "A's accuracy ≥ B's − 2 points" is 'greater' with offset −0.02. @default 0
   */
  readonly offset?: number;
  readonly format: CellFormat;
  /** Names of A and B, recorded in the decision and printed before the numbers ("PAST 0.784 vs w/o 0.638"). */
  readonly labels?: readonly [string, string];
  /**
   * The standard error of the difference A − B itself, when it is known better than from the two
   * sides' SEs (e.g. a paired bootstrap over the same evaluation examples, or one that includes the
   * spread over training seeds). Without it the SE of the difference is `sqrt(seA² + seB²)` (the two
   * estimates independent). Must be finite and ≥ 0.
   */
  readonly differenceSe?: number;
  /** Where {@link differenceSe} comes from, e.g. "paired bootstrap" (recorded and printed). Required with it. */
  readonly differenceSeSource?: string;
}

/** A number in a table's format: percent (one decimal), integer, or three decimals. */
export function formatNumber(value: number, format: CellFormat): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (format === 'pct') return (100 * value).toFixed(1);
  if (format === 'int') return String(Math.round(value));
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(3);
}

const signed = (value: number, format: CellFormat) => `${value >= 0 ? '+' : '−'}${formatNumber(Math.abs(value), format)}`;

/** Standard normal upper tail P(Z > z) (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7). */
export function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/**
 * Decides "A − B beyond `offset` in `direction`" with a 2-SE margin (docs/protocol.md §5.1): the SE
 * of the difference is `options.differenceSe` when given (e.g. a paired bootstrap), else
 * `sqrt(seA² + seB²)` (the two estimates independent). Holds when the difference exceeds the offset
 * by more than 2 SE in the claimed direction, does not hold when it misses it by more than 2 SE,
 * else "within noise". Without an SE the claim is "not testable". The decision records the two
 * values, Δ, its SE and source, the direction and offset; evidence:
 * "0.784 vs 0.638, Δ = +0.146 ± 0.021 (2 SE = 0.042)".
 * @throws InvalidArgumentError when `differenceSe` is negative or not finite, or given without its source.
 */
export function compareEstimates(a: Estimate, b: Estimate, options: CompareOptions): Decision {
  const { format, direction } = options;
  const offset = options.offset ?? 0;
  if (options.differenceSe !== undefined) {
    if (!Number.isFinite(options.differenceSe) || options.differenceSe < 0)
      throw new InvalidArgumentError(`compareEstimates: options.differenceSe must be a finite number ≥ 0, got ${String(options.differenceSe)}`);
    if (options.differenceSeSource === undefined || options.differenceSeSource.trim() === '')
      throw new InvalidArgumentError(
        `compareEstimates: options.differenceSeSource must name where differenceSe comes from (e.g. "paired bootstrap"), got ${JSON.stringify(options.differenceSeSource)}`,
      );
  }
  const diff = a.value - b.value;
  const [la, lb] = options.labels ?? [undefined, undefined];
  const values = `${la === undefined ? '' : `${la} `}${formatNumber(a.value, format)} vs ${lb === undefined ? '' : `${lb} `}${formatNumber(b.value, format)}`;
  const base = {
    ...(options.labels === undefined ? {} : { labels: options.labels }),
    a: a.value,
    b: b.value,
    delta: diff,
    direction,
    offset,
    format,
  };
  const sidesKnown = a.se !== undefined && b.se !== undefined && Number.isFinite(a.se) && Number.isFinite(b.se);
  if (options.differenceSe === undefined && !sidesKnown) {
    const reason = `no standard error for these numbers (${values}, Δ = ${signed(diff, format)})`;
    return { verdict: 'not testable', evidence: `not testable at this scale: ${reason}`, ...base, reason };
  }
  const sources = [...new Set([a.seSource, b.seSource].filter((s): s is SeSource => s !== undefined))];
  const se = options.differenceSe ?? Math.sqrt(a.se! * a.se! + b.se! * b.se!);
  const seSource = options.differenceSeSource ?? `independent: sqrt(seA² + seB²)${sources.length === 0 ? '' : `, ${sources.join(' and ')}`}`;
  const margin = (direction === 'greater' ? 1 : -1) * (diff - offset);
  const z = se > 0 ? margin / se : margin > 0 ? Infinity : margin < 0 ? -Infinity : 0;
  const verdict: ClaimVerdict = margin > 2 * se ? 'holds' : margin < -2 * se ? 'does not hold' : 'within noise';
  const against = offset === 0 ? '' : ` against the allowed ${signed(offset, format)}`;
  const named = sources.filter((s): s is Exclude<SeSource, 'bootstrap'> => s !== 'bootstrap');
  const note =
    options.differenceSe !== undefined
      ? `; SE of the difference from ${options.differenceSeSource!}`
      : named.length === 0
        ? ''
        : `; SE from ${named.map((s) => SOURCE_TEXT[s]).join(' and ')}`;
  return {
    verdict,
    evidence: `${values}, Δ = ${signed(diff, format)} ± ${formatNumber(se, format)}${against} (2 SE = ${formatNumber(2 * se, format)}${note})`,
    ...base,
    se,
    seSource,
    z,
  };
}

/** A column that could not be decided: not run / not evaluated (a missing run or row) or not testable, with the reason. */
export function undecidedColumn(column: string, verdict: 'not evaluated' | 'not testable', reason: string): ColumnDecision {
  return { column, verdict, reason, evidence: verdict === 'not testable' ? `not testable at this scale: ${reason}` : reason };
}

const DECIDED: readonly ClaimVerdict[] = ['holds', 'does not hold', 'within noise'];

/** Whether a verdict decides the claim one way or the other (or says it is within noise). */
export const isDecided = (verdict: ClaimVerdict): boolean => DECIDED.includes(verdict);

/** Options of {@link combineColumns}. */
export interface CombineOptions {
  /** Family-wise error rate of Holm's step-down over the columns' failures. @default 0.05 */
  readonly alpha?: number;
}

/**
 * Holm's step-down (docs/protocol.md §5.1) applied to the failures of a family of comparisons: the
 * null hypothesis of comparison j is "the claim holds there", its one-sided p-value Φ(z_j) (z = the
 * margin in SEs, negative for a failure). Sorted ascending, p_(i) is rejected while
 * p_(i) ≤ α/(m − i + 1); a "does not hold" whose null is not rejected becomes "within noise",
 * saying so. Columns without a z are left as they are. m = the number of columns with a z.
 */
export function holmFailures(columns: readonly ColumnDecision[], alpha = 0.05): ColumnDecision[] {
  if (!(alpha > 0 && alpha < 1)) throw new InvalidArgumentError(`holmFailures: alpha must be in (0, 1), got ${String(alpha)}`);
  const tested = columns.map((c, i) => ({ i, z: c.z })).filter((x): x is { i: number; z: number } => x.z !== undefined && !Number.isNaN(x.z));
  const m = tested.length;
  const p = (z: number) => normalUpperTail(-z); // P(Z < z): small when z is very negative
  const order = [...tested].sort((x, y) => p(x.z) - p(y.z));
  const rejected = new Set<number>();
  for (let k = 0; k < order.length; k++) {
    if (p(order[k]!.z) <= alpha / (m - k)) rejected.add(order[k]!.i);
    else break;
  }
  return columns.map((c, i) => {
    if (c.verdict !== 'does not hold' || c.z === undefined || rejected.has(i)) return c;
    const pv = p(c.z);
    const rank = order.findIndex((x) => x.i === i);
    const threshold = alpha / (m - rank);
    const why =
      pv > threshold
        ? `one-sided p = ${pv.toPrecision(2)} > α/${m - rank} = ${threshold.toPrecision(2)}`
        : `a comparison with a smaller p was not rejected first`;
    const multiplicity = `fails by ${Math.abs(c.z).toFixed(1)} SE, but not after Holm's step-down over ${m} comparisons at family α = ${alpha} (${why})`;
    return { ...c, verdict: 'within noise', multiplicity, evidence: `${c.evidence}; ${multiplicity}` };
  });
}

/** Whether an undecided column was not run at all (its reason says "not run"), rather than missing a comparator. */
const notRun = (c: Decision): boolean => /^not run\b/i.test(c.reason ?? c.evidence);

const deltaText = (c: Decision): string =>
  c.delta === undefined || c.se === undefined
    ? ''
    : ` (${c.p !== undefined ? `τ ${signed(c.delta, 'num')}, p = ${c.p.toPrecision(2)}` : `Δ ${signed(c.delta, c.format ?? 'num')} ± ${formatNumber(c.se, c.format ?? 'num')}`})`;

/**
 * One line saying how a claim's verdict comes about, from its structured decisions (docs/protocol.md
 * §5.1): "partial: holds on CIFAR-10, Purchase; not run on CIFAR-100, SVHN", "does not hold: fails on
 * CIFAR-10 (Δ −3.1 ± 0.9)", "holds (Δ +0.146 ± 0.021)". A claim without structured decisions
 * (older results) gives its verdict alone.
 */
export function claimSummary(claim: Pick<Claim, 'verdict' | 'decision' | 'columns'>): string {
  if (claim.columns !== undefined && claim.columns.length > 0) {
    const groups: Array<[string, (c: ColumnDecision) => boolean, boolean]> = [
      ['fails on', (c) => c.verdict === 'does not hold', true],
      ['holds on', (c) => c.verdict === 'holds', false],
      ['within noise on', (c) => c.verdict === 'within noise', false],
      ['not testable on', (c) => c.verdict === 'not testable', false],
      ['not run on', (c) => c.verdict === 'not evaluated' && notRun(c), false],
      ['not evaluated on', (c) => (c.verdict === 'not evaluated' && !notRun(c)) || c.verdict === 'partial', false],
    ];
    const parts = groups.flatMap(([label, test, withDelta]) => {
      const cs = claim.columns!.filter(test);
      return cs.length === 0 ? [] : [`${label} ${cs.map((c) => `${c.column}${withDelta ? deltaText(c) : ''}`).join(', ')}`];
    });
    return `${claim.verdict}: ${parts.join('; ')}`;
  }
  if (claim.decision !== undefined && isDecided(claim.decision.verdict)) return `${claim.verdict}${deltaText(claim.decision)}`;
  return claim.verdict;
}

/**
 * Combines the per-column decisions of an "on every column" claim (docs/protocol.md §5.1). First
 * the failures go through Holm's step-down over the columns ({@link holmFailures}); then:
 * does not hold when any decided column does not hold (naming it); holds only when every column
 * holds; partial when every decided column holds and the others were not run or not testable;
 * otherwise (no failure, some within noise) within noise; nothing decided → not testable when a
 * column was not testable, else not evaluated. The claim keeps the column decisions (`columns`);
 * its evidence is rendered from them.
 */
export function combineColumns(statement: string, columns: readonly ColumnDecision[], options: CombineOptions = {}): Claim {
  const alpha = options.alpha ?? 0.05;
  const cols = holmFailures(columns, alpha);
  const decided = cols.filter((c) => isDecided(c.verdict));
  let verdict: ClaimVerdict;
  if (cols.some((c) => c.verdict === 'does not hold')) verdict = 'does not hold';
  else if (cols.length > 0 && cols.every((c) => c.verdict === 'holds')) verdict = 'holds';
  else if (decided.length > 0 && decided.every((c) => c.verdict === 'holds')) verdict = 'partial';
  else if (decided.length > 0) verdict = 'within noise';
  else verdict = cols.some((c) => c.verdict === 'not testable') ? 'not testable' : 'not evaluated';
  const m = cols.filter((c) => c.z !== undefined).length;
  const rule = `every column must hold; a failure counts only after Holm's step-down over the ${m} decided comparison(s) at family α = ${alpha}`;
  const detail = cols.length === 0 ? 'no column to evaluate' : cols.map((c) => `${c.column}: ${c.verdict} — ${c.evidence}`).join('; ');
  const summary = cols.length === 0 ? verdict : claimSummary({ verdict, columns: cols });
  return { statement, verdict, evidence: `${summary}. ${detail}`, columns: cols, rule };
}

/**
 * A single-comparison claim (e.g. a trend claim) as one column of a larger claim: its decision with
 * the column name, or, when it was not decided, an undecided column with its evidence as the reason.
 */
export function columnOf(column: string, claim: Claim): ColumnDecision {
  if (claim.decision !== undefined) return { ...claim.decision, column };
  const verdict = claim.verdict === 'not testable' ? 'not testable' : 'not evaluated';
  return { column, verdict, reason: claim.evidence.replace(/^not testable at this scale: /, ''), evidence: claim.evidence };
}

/** A claim from one {@link Decision} (its structured numbers kept as `decision`). */
export const decidedClaim = (statement: string, decision: Decision): Claim => ({ statement, verdict: decision.verdict, evidence: decision.evidence, decision });

/** A claim that could not be evaluated (a run, row or comparator is missing), never "holds". */
export const notEvaluated = (statement: string, why: string): Claim => ({ statement, verdict: 'not evaluated', evidence: why });

/** A claim whose preconditions fail at this scale (docs/protocol.md §5), with the reason. */
export const notTestable = (statement: string, reason: string): Claim => ({
  statement,
  verdict: 'not testable',
  evidence: `not testable at this scale: ${reason}`,
});
