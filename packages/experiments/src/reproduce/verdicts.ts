import { InvalidArgumentError } from '@mia/core';
import { studentTCdf, studentTQuantile } from '@mia/metrics';
import type {
  CellFormat,
  Claim,
  ClaimVerdict,
  ColumnDecision,
  ComparisonDecision,
  DecidedDecision,
  DecidedVerdict,
  Decision,
  Direction,
  UndecidedComparison,
  UndecidedKind,
} from './types';

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
  /**
   * Degrees of freedom of `se` (docs/protocol.md §5.1): finite for an SE that rests on a few
   * training seeds (Welch–Satterthwaite, {@link combineSeeds}); absent or Infinity for a large-sample
   * SE (bootstrap over thousands of examples, binomial).
   */
  readonly df?: number;
}

/**
 * The kind of test a comparison is (docs/protocol.md §5.1): 'superiority' (the default) decides
 * "A − B beyond the offset" at the two-sided 2-SE level; 'non-inferiority' decides "A − B above the
 * offset (a negative margin, e.g. −2 accuracy points)" as a one-sided test at α = 2.5 % (the lower
 * end of the 95 % interval of Δ clears the margin), the standard reading of "within a margin".
 */
export type ComparisonTest = 'superiority' | 'non-inferiority';

/** One-sided level of the 2-SE rule under the normal: Φ(2) = 0.97725 (so t_∞ gives exactly 2). */
const SUPERIORITY_LEVEL = 0.9772498680518208;
/** One-sided level of a non-inferiority test (α = 2.5 %). */
const NON_INFERIORITY_LEVEL = 0.975;

/**
 * The critical value a margin must exceed, in SEs (docs/protocol.md §5.1): the Student-t quantile
 * with `df` degrees of freedom at the test's one-sided level — 2 for a large-sample superiority
 * comparison (df = ∞), 4.53 with 2 degrees of freedom (three training seeds whose spread dominates
 * the SE), 1.96 for a large-sample non-inferiority test.
 */
export function criticalValue(test: ComparisonTest, df: number | undefined): number {
  const level = test === 'non-inferiority' ? NON_INFERIORITY_LEVEL : SUPERIORITY_LEVEL;
  // Large-sample: the exact normal quantiles (2 by construction; Φ⁻¹(0.975) = 1.959964…).
  if (df === undefined || !(df > 0) || !Number.isFinite(df)) return test === 'non-inferiority' ? 1.959963984540054 : 2;
  return studentTQuantile(level, df);
}

/**
 * Welch–Satterthwaite degrees of freedom of a sum of variances, each with its own degrees of
 * freedom: `(Σ v_i)² / Σ (v_i² / df_i)`; Infinity when every part is large-sample.
 */
export function satterthwaiteDf(parts: ReadonlyArray<{ readonly variance: number; readonly df?: number | undefined }>): number {
  const total = parts.reduce((a, p) => a + p.variance, 0);
  const denominator = parts.reduce((a, p) => (p.df === undefined || !Number.isFinite(p.df) ? a : a + (p.variance * p.variance) / p.df), 0);
  return denominator > 0 ? (total * total) / denominator : Infinity;
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
  /** Degrees of freedom of {@link differenceSe} (finite when it rests on a few training seeds). @default Infinity */
  readonly differenceDf?: number;
  /** The kind of test (see {@link ComparisonTest}). 'non-inferiority' needs `direction: 'greater'` and a negative `offset` (the margin). @default 'superiority' */
  readonly test?: ComparisonTest;
}

/** SE sources that measure one trained model, not a sampling error over training runs: no decision rests on them. */
const PSEUDO_REPLICATED: readonly SeSource[] = ['parameters', 'sample'];

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
 * Decides "A − B beyond `offset` in `direction`" (docs/protocol.md §5.1). The SE of the difference is
 * `options.differenceSe` when given (e.g. a paired bootstrap), else `sqrt(seA² + seB²)` (the two
 * estimates independent); its degrees of freedom are `options.differenceDf`, else the
 * Welch–Satterthwaite combination of the two sides' `df` (Infinity for large-sample SEs). The margin
 * (Δ − offset, signed so that positive favours the claim) must exceed the critical value
 * {@link criticalValue} times the SE: 2 SE for a large-sample superiority comparison, a Student-t
 * quantile when the SE rests on a few training seeds, and a one-sided 2.5 % test for a
 * non-inferiority claim (`test: 'non-inferiority'`). Holds when the margin exceeds it, does not hold
 * when it misses by more than it, else "within noise". Without an SE the claim is "not testable"; an
 * SE over one model's parameters or evaluation points (`seSource` 'parameters' or 'sample') is not a
 * sampling error over training runs, so such a comparison is "not testable" too ("shown, not
 * decided"). The decision records the two values, Δ, its SE, df and source, the test, the critical
 * value, the direction and offset; evidence: "0.784 vs 0.638, Δ = +0.146 ± 0.021 (2 SE = 0.042)".
 * @throws InvalidArgumentError when `differenceSe` is negative or not finite, or given without its
 *   source; when `differenceDf` is not > 0; when a non-inferiority test has no negative margin.
 */
export function compareEstimates(a: Estimate, b: Estimate, options: CompareOptions): ComparisonDecision | UndecidedComparison {
  const { format, direction } = options;
  const offset = options.offset ?? 0;
  const test = options.test ?? 'superiority';
  if (options.differenceSe !== undefined) {
    if (!Number.isFinite(options.differenceSe) || options.differenceSe < 0)
      throw new InvalidArgumentError(`compareEstimates: options.differenceSe must be a finite number ≥ 0, got ${String(options.differenceSe)}`);
    if (options.differenceSeSource === undefined || options.differenceSeSource.trim() === '')
      throw new InvalidArgumentError(
        `compareEstimates: options.differenceSeSource must name where differenceSe comes from (e.g. "paired bootstrap"), got ${JSON.stringify(options.differenceSeSource)}`,
      );
  }
  if (options.differenceDf !== undefined && !(options.differenceDf > 0))
    throw new InvalidArgumentError(
      `compareEstimates: options.differenceDf must be a number > 0 (Infinity for a large sample), got ${String(options.differenceDf)}`,
    );
  if (test === 'non-inferiority' && (direction !== 'greater' || !(offset < 0)))
    throw new InvalidArgumentError(
      `compareEstimates: a non-inferiority test needs direction 'greater' and a negative offset (the margin), got direction ${JSON.stringify(direction)} and offset ${String(offset)}`,
    );
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
    ...(test === 'superiority' ? {} : { test }),
  };
  const sidesKnown = a.se !== undefined && b.se !== undefined && Number.isFinite(a.se) && Number.isFinite(b.se);
  if (options.differenceSe === undefined && !sidesKnown) {
    const reason = `no standard error for these numbers (${values}, Δ = ${signed(diff, format)})`;
    return { verdict: 'not testable', kind: 'not-testable', evidence: `not testable at this scale: ${reason}`, ...base, reason };
  }
  const sources = [...new Set([a.seSource, b.seSource].filter((s): s is SeSource => s !== undefined))];
  const pseudo = sources.filter((s) => PSEUDO_REPLICATED.includes(s));
  if (options.differenceSe === undefined && pseudo.length > 0) {
    const reason = `shown, not decided: ${values}, Δ = ${signed(diff, format)}, but its SE is over ${pseudo.map((s) => SOURCE_TEXT[s as Exclude<SeSource, 'bootstrap'>]).join(' and ')} — the resolution of one trained model, not a sampling error over training runs (pseudo-replication); training seeds would decide it`;
    return { verdict: 'not testable', kind: 'shown-not-decided', evidence: `not testable at this scale: ${reason}`, ...base, reason };
  }
  const se = options.differenceSe ?? Math.sqrt(a.se! * a.se! + b.se! * b.se!);
  const df =
    options.differenceSe !== undefined
      ? (options.differenceDf ?? Infinity)
      : satterthwaiteDf([
          { variance: a.se! * a.se!, df: a.df },
          { variance: b.se! * b.se!, df: b.df },
        ]);
  const critical = criticalValue(test, df);
  const seSource = options.differenceSeSource ?? `independent: sqrt(seA² + seB²)${sources.length === 0 ? '' : `, ${sources.join(' and ')}`}`;
  const margin = (direction === 'greater' ? 1 : -1) * (diff - offset);
  const z = se > 0 ? margin / se : margin > 0 ? Infinity : margin < 0 ? -Infinity : 0;
  const verdict: DecidedVerdict = margin > critical * se ? 'holds' : margin < -critical * se ? 'does not hold' : 'within noise';
  const against =
    offset === 0 ? '' : test === 'non-inferiority' ? ` against the margin ${signed(offset, format)}` : ` against the allowed ${signed(offset, format)}`;
  const named = sources.filter((s): s is Exclude<SeSource, 'bootstrap'> => s !== 'bootstrap');
  const note =
    options.differenceSe !== undefined
      ? `; SE of the difference from ${options.differenceSeSource!}`
      : named.length === 0
        ? ''
        : `; SE from ${named.map((s) => SOURCE_TEXT[s]).join(' and ')}`;
  const finiteDf = Number.isFinite(df);
  const threshold =
    !finiteDf && test === 'superiority'
      ? `2 SE = ${formatNumber(2 * se, format)}`
      : `${test === 'non-inferiority' ? 'one-sided 2.5 %, ' : ''}${finiteDf ? `t(${df.toFixed(1)} df)` : 'normal'} critical ${critical.toFixed(2)} × SE = ${formatNumber(critical * se, format)}`;
  return {
    verdict,
    evidence: `${values}, Δ = ${signed(diff, format)} ± ${formatNumber(se, format)}${against} (${threshold}${note})`,
    ...base,
    se,
    seSource,
    z,
    ...(finiteDf ? { df } : {}),
    critical,
  };
}

/**
 * A column that could not be decided, with why (`kind`) and the reason: 'not-run' (its run did not
 * happen here) or 'not-evaluated' (a comparator, row or value is missing) give the verdict "not
 * evaluated", 'not-testable' and 'shown-not-decided' "not testable". A not-run reason reads "not
 * run…" (e.g. a `NotRun`'s), so reproduction.json, which does not store `kind`, says it too.
 */
export function undecidedColumn(column: string, kind: UndecidedKind, reason: string): ColumnDecision {
  if (kind === 'not-run' || kind === 'not-evaluated') return { column, verdict: 'not evaluated', kind, reason, evidence: reason };
  return { column, verdict: 'not testable', kind, reason, evidence: `not testable at this scale: ${reason}` };
}

const DECIDED: readonly ClaimVerdict[] = ['holds', 'does not hold', 'within noise'];

/**
 * Whether a verdict decides the claim one way or the other (or says it is within noise); given a
 * decision, narrows it to a {@link DecidedDecision} (with Δ, SE and z).
 */
export function isDecided(decision: Decision): decision is DecidedDecision;
export function isDecided(verdict: ClaimVerdict): verdict is DecidedVerdict;
export function isDecided(of: ClaimVerdict | Decision): boolean {
  return DECIDED.includes(typeof of === 'string' ? of : of.verdict);
}

/** Options of {@link combineColumns}. */
export interface CombineOptions {
  /** Family-wise error rate of Holm's step-down over the columns' failures. @default 0.05 */
  readonly alpha?: number;
}

/**
 * Holm's step-down (docs/protocol.md §5.1) applied to the failures of a family of comparisons: the
 * null hypothesis of comparison j is "the claim holds there", its one-sided p-value Φ(z_j), or the
 * Student-t CDF at z_j with the comparison's `df` when its SE rests on a few training seeds (z = the
 * margin in SEs, negative for a failure). Sorted ascending, p_(i) is rejected while
 * p_(i) ≤ α/(m − i + 1); a "does not hold" whose null is not rejected becomes "within noise",
 * saying so. Columns without a z are left as they are. m = the number of columns with a z.
 */
export function holmFailures(columns: readonly ColumnDecision[], alpha = 0.05): ColumnDecision[] {
  if (!(alpha > 0 && alpha < 1)) throw new InvalidArgumentError(`holmFailures: alpha must be in (0, 1), got ${String(alpha)}`);
  const tested = columns
    .map((c, i) => ({ i, z: c.z, df: c.df }))
    .filter((x): x is { i: number; z: number; df: number | undefined } => x.z !== undefined && !Number.isNaN(x.z));
  const m = tested.length;
  // P(T < z) with the comparison's degrees of freedom (the normal for a large-sample SE): small when z is very negative.
  const pOf = (x: { z: number; df: number | undefined }) => (x.df === undefined ? normalUpperTail(-x.z) : studentTCdf(x.z, x.df));
  const pByIndex = new Map(tested.map((x) => [x.i, pOf(x)]));
  const p = (i: number) => pByIndex.get(i)!;
  const order = [...tested].sort((x, y) => p(x.i) - p(y.i));
  const rejected = new Set<number>();
  for (let k = 0; k < order.length; k++) {
    if (p(order[k]!.i) <= alpha / (m - k)) rejected.add(order[k]!.i);
    else break;
  }
  return columns.map((c, i) => {
    if (c.verdict !== 'does not hold' || c.z === undefined || rejected.has(i)) return c;
    const pv = p(i);
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

const deltaText = (c: Decision): string =>
  !isDecided(c)
    ? ''
    : ` (${c.p !== undefined ? `τ ${signed(c.delta, 'num')}, p = ${c.p.toPrecision(2)}` : `Δ ${signed(c.delta, c.format ?? 'num')} ± ${formatNumber(c.se, c.format ?? 'num')}`})`;

/**
 * One line saying how a claim's verdict comes about, from its structured decisions (docs/protocol.md
 * §5.1): "partial: holds on CIFAR-10, Purchase; not run on CIFAR-100, SVHN", "does not hold: fails on
 * CIFAR-10 (Δ −3.1 ± 0.9)", "holds (Δ +0.146 ± 0.021)". A claim without structured decisions
 * (older results) gives its verdict alone.
 * @throws InvalidArgumentError when an undecided column has no `kind` (a stored claim not read back with `reproductionFromStored`).
 */
export function claimSummary(claim: Pick<Claim, 'verdict' | 'decision' | 'columns'>): string {
  if (claim.columns !== undefined && claim.columns.length > 0) {
    const unclassified = claim.columns.find((c) => !isDecided(c) && (c.kind as UndecidedKind | undefined) === undefined);
    if (unclassified !== undefined)
      throw new InvalidArgumentError(
        `claimSummary: every undecided column must say why (its kind), got none for ${JSON.stringify(unclassified.column)} (read a stored reproduction.json with reproductionFromStored)`,
      );
    const groups: Array<[string, (c: ColumnDecision) => boolean, boolean]> = [
      ['fails on', (c) => c.verdict === 'does not hold', true],
      ['holds on', (c) => c.verdict === 'holds', false],
      ['within noise on', (c) => c.verdict === 'within noise', false],
      ['not testable on', (c) => c.verdict === 'not testable', false],
      ['not run on', (c) => c.kind === 'not-run', false],
      ['not evaluated on', (c) => c.kind === 'not-evaluated', false],
    ];
    const shown = groups.flatMap(([label, test, withDelta]) => {
      const cs = claim.columns!.filter(test);
      return cs.length === 0 ? [] : [{ label, text: `${label} ${cs.map((c) => `${c.column}${withDelta ? deltaText(c) : ''}`).join(', ')}` }];
    });
    const parts = shown.map((g) => g.text).join('; ');
    // "holds on A, B" or "not testable on A; not run on B" already says the verdict first: no "holds: holds on …".
    return shown[0]!.label === `${claim.verdict} on` ? parts : `${claim.verdict}: ${parts}`;
  }
  if (claim.decision !== undefined && isDecided(claim.decision)) return `${claim.verdict}${deltaText(claim.decision)}`;
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
  // An undecided column's evidence starts with its verdict ("not testable at this scale: …"): not said twice.
  const columnText = (c: ColumnDecision) => (c.evidence.startsWith(c.verdict) ? `${c.column}: ${c.evidence}` : `${c.column}: ${c.verdict} — ${c.evidence}`);
  const detail = cols.length === 0 ? 'no column to evaluate' : cols.map(columnText).join('; ');
  const summary = cols.length === 0 ? verdict : claimSummary({ verdict, columns: cols });
  return { statement, verdict, evidence: `${summary}. ${detail}`, columns: cols, rule };
}

/**
 * One decision (e.g. a trend's, `trendDecision`) as one column of a larger claim: a decided one with
 * the column name, an undecided one as {@link undecidedColumn} makes it.
 */
export function columnOf(column: string, decision: Decision): ColumnDecision {
  // Keys in the order reproduction.json has them: a decision with numbers keeps its own first, an undecided one's name comes first.
  return decision.delta !== undefined ? { ...decision, column } : { column, ...decision };
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
