import type { CellFormat, Claim, ClaimVerdict } from './types';

/**
 * Where a standard error comes from: the runner's bootstrap, a binomial approximation (older results),
 * repeated seeds, or the spread over a model's parameters (claims about one model's weights or
 * sensitivities: the resolution of the measurement, not the spread over training seeds).
 */
export type SeSource = 'bootstrap' | 'binomial' | 'seeds' | 'parameters';

const SOURCE_TEXT: Readonly<Record<Exclude<SeSource, 'bootstrap'>, string>> = {
  binomial: 'a binomial approximation sqrt(p(1−p)/n) (results without bootstrap SEs)',
  seeds: 'repeated seeds',
  parameters: "the model's parameters (one training seed)",
};

/** A measured number with its standard error (absent when none is known). */
export interface Estimate {
  readonly value: number;
  readonly se?: number;
  readonly seSource?: SeSource;
}

/** The direction a comparison claims: A above B, or A below B. */
export type Direction = 'greater' | 'less';

/** Options of {@link compareEstimates}. */
export interface CompareOptions {
  readonly direction: Direction;
  /**
   * What the claim allows: it states `A − B > offset` ('greater') or `A − B < offset` ('less');
   * e.g. "A's accuracy ≥ B's − 2 points" is 'greater' with offset −0.02. @default 0
   */
  readonly offset?: number;
  readonly format: CellFormat;
}

/** A decided (or undecidable) comparison: its verdict and the numbers behind it. */
export interface Decision {
  readonly verdict: ClaimVerdict;
  readonly evidence: string;
}

/** A number in a table's format: percent (one decimal), integer, or three decimals. */
export function formatNumber(value: number, format: CellFormat): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (format === 'pct') return (100 * value).toFixed(1);
  if (format === 'int') return String(Math.round(value));
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(3);
}

const signed = (value: number, format: CellFormat) => `${value >= 0 ? '+' : '−'}${formatNumber(Math.abs(value), format)}`;

/**
 * Decides "A − B beyond `offset` in `direction`" with a 2-SE margin (docs/protocol.md §5): the SE
 * of the difference is `sqrt(seA² + seB²)` (the two models are trained independently). Holds when
 * the difference exceeds the offset by more than 2 SE in the claimed direction, does not hold when
 * it misses it by more than 2 SE, else "within noise". Without an SE for either side the claim is
 * "not testable". Evidence: "0.784 vs 0.638, Δ = +0.146 ± 0.021 (2 SE = 0.042)".
 */
export function compareEstimates(a: Estimate, b: Estimate, options: CompareOptions): Decision {
  const { format, direction } = options;
  const offset = options.offset ?? 0;
  const diff = a.value - b.value;
  const values = `${formatNumber(a.value, format)} vs ${formatNumber(b.value, format)}`;
  if (a.se === undefined || b.se === undefined || !Number.isFinite(a.se) || !Number.isFinite(b.se)) {
    return { verdict: 'not testable', evidence: `not testable at this scale: no standard error for these numbers (${values}, Δ = ${signed(diff, format)})` };
  }
  const se = Math.sqrt(a.se * a.se + b.se * b.se);
  const margin = (direction === 'greater' ? 1 : -1) * (diff - offset);
  const verdict: ClaimVerdict = margin > 2 * se ? 'holds' : margin < -2 * se ? 'does not hold' : 'within noise';
  const against = offset === 0 ? '' : ` against the allowed ${signed(offset, format)}`;
  const sources = [...new Set([a.seSource, b.seSource].filter((s): s is Exclude<SeSource, 'bootstrap'> => s !== undefined && s !== 'bootstrap'))];
  const note = sources.length === 0 ? '' : `; SE from ${sources.map((s) => SOURCE_TEXT[s]).join(' and ')}`;
  return {
    verdict,
    evidence: `${values}, Δ = ${signed(diff, format)} ± ${formatNumber(se, format)}${against} (2 SE = ${formatNumber(2 * se, format)}${note})`,
  };
}

/** The verdict of one column of a claim, with its evidence. */
export interface ColumnDecision extends Decision {
  readonly column: string;
}

const DECIDED: readonly ClaimVerdict[] = ['holds', 'does not hold', 'within noise'];

/** Whether a verdict decides the claim one way or the other (or says it is within noise). */
export const isDecided = (verdict: ClaimVerdict): boolean => DECIDED.includes(verdict);

/**
 * Combines the per-column verdicts of an "on every column" claim (docs/protocol.md §5): every
 * column decided → holds when every column holds, does not hold when any does not, else within
 * noise; some but not all decided → "partial"; none decided → "not testable" when a column was
 * not testable, else "not evaluated". The evidence lists every column's verdict and numbers.
 */
export function combineColumns(statement: string, columns: readonly ColumnDecision[]): Claim {
  const decided = columns.filter((c) => isDecided(c.verdict));
  let verdict: ClaimVerdict;
  if (columns.length > 0 && decided.length === columns.length) {
    verdict = decided.every((c) => c.verdict === 'holds') ? 'holds' : decided.some((c) => c.verdict === 'does not hold') ? 'does not hold' : 'within noise';
  } else if (decided.length > 0) verdict = 'partial';
  else verdict = columns.some((c) => c.verdict === 'not testable') ? 'not testable' : 'not evaluated';
  const evidence = columns.length === 0 ? 'no column to evaluate' : columns.map((c) => `${c.column}: ${c.verdict} — ${c.evidence}`).join('; ');
  return { statement, verdict, evidence: verdict === 'partial' ? `decided on ${decided.length} of ${columns.length} columns; ${evidence}` : evidence };
}

/** A claim from one {@link Decision}. */
export const decidedClaim = (statement: string, decision: Decision): Claim => ({ statement, verdict: decision.verdict, evidence: decision.evidence });

/** A claim that could not be evaluated (a run, row or comparator is missing), never "holds". */
export const notEvaluated = (statement: string, why: string): Claim => ({ statement, verdict: 'not evaluated', evidence: why });

/** A claim whose preconditions fail at this scale (docs/protocol.md §5), with the reason. */
export const notTestable = (statement: string, reason: string): Claim => ({
  statement,
  verdict: 'not testable',
  evidence: `not testable at this scale: ${reason}`,
});
