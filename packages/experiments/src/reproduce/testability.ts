import { InvalidArgumentError } from '@mia/core';
import type { DefenseRow, ExperimentResults } from '../results';

/**
 * The regime a paper's claims presuppose (docs/protocol.md §5.1): the undefended model fits its
 * training set, generalises well above chance, and overfits; no compared model collapsed. Each
 * reproduction states its thresholds and why (`why`).
 */
export interface Regime {
  /** Lowest train accuracy of the undefended model. @default 0.9 */
  readonly minTrainAccuracy: number;
  /** Lowest test accuracy of the undefended model, as a multiple of chance (1 / classes). @default 3 */
  readonly minTestOverChance: number;
  /** The undefended model's train − test accuracy must exceed this. @default 0 */
  readonly minGap: number;
  /** A compared model with test accuracy ≤ this multiple of chance counts as collapsed. @default 1.5 */
  readonly collapseOverChance: number;
  /** One line: why these thresholds for this paper. */
  readonly why: string;
}

/** The thresholds of docs/protocol.md §5.1 (train ≥ 90 %, test ≥ 3× chance, gap > 0, collapse ≤ 1.5× chance). */
export const DEFAULT_REGIME: Regime = {
  minTrainAccuracy: 0.9,
  minTestOverChance: 3,
  minGap: 0,
  collapseOverChance: 1.5,
  why: 'the defaults of docs/protocol.md §5.1',
};

/** A regime with some thresholds changed (and the reason). */
export const regime = (overrides: Partial<Regime> & { readonly why: string }): Regime => ({ ...DEFAULT_REGIME, ...overrides });

const pct = (v: number) => `${(100 * v).toFixed(1)} %`;

/** The number of classes of a run: from its results, else `fallback`. @throws InvalidArgumentError when neither says. */
export function classesOf(results: ExperimentResults, fallback?: number): number {
  const classes = results.dataset.classes ?? fallback;
  if (classes === undefined || !Number.isInteger(classes) || classes < 2) {
    throw new InvalidArgumentError(
      `classesOf: the number of classes of ${results.dataset.name} must be an integer ≥ 2 (results.dataset.classes or the fallback), got ${String(classes)}`,
    );
  }
  return classes;
}

/** Why the undefended model is not in `regime`'s regime, or undefined when it is. */
export function regimeProblem(undefended: DefenseRow, classes: number, r: Regime): string | undefined {
  const chance = 1 / classes;
  const problems: string[] = [];
  if (undefended.trainAccuracy < r.minTrainAccuracy) problems.push(`undefended train accuracy ${pct(undefended.trainAccuracy)} < ${pct(r.minTrainAccuracy)}`);
  if (undefended.testAccuracy < r.minTestOverChance * chance)
    problems.push(`undefended test accuracy ${pct(undefended.testAccuracy)} < ${r.minTestOverChance}× chance (${pct(r.minTestOverChance * chance)})`);
  const gap = undefended.trainAccuracy - undefended.testAccuracy;
  if (!(gap > r.minGap)) problems.push(`undefended generalization gap ${pct(gap)} ≤ ${pct(r.minGap)}`);
  return problems.length === 0 ? undefined : problems.join(', ');
}

/** Why a compared model counts as collapsed (test accuracy ≤ `collapseOverChance`× chance, or a divergence warning), or undefined. */
export function collapseProblem(row: DefenseRow, results: ExperimentResults, classes: number, r: Regime): string | undefined {
  const limit = r.collapseOverChance / classes;
  if (row.testAccuracy <= limit) return `${row.label} collapsed (test accuracy ${pct(row.testAccuracy)} ≤ ${r.collapseOverChance}× chance, ${pct(limit)})`;
  const flag = (results.warnings ?? []).find((w) => w.startsWith(`${row.label} target diverged`));
  return flag === undefined ? undefined : `${row.label} failed (${flag.split(':')[0]})`;
}

/** What {@link testabilityProblem} checks. */
export interface TestabilityInput {
  readonly results: ExperimentResults;
  /** Label of the undefended row whose regime is checked (undefined: no regime check, e.g. a sweep without one). */
  readonly undefended: string | undefined;
  /** Labels of the rows the claim compares (each must not have collapsed). */
  readonly compared: readonly string[];
  /**
   * Labels of compared rows that must also fit their training set like the undefended model
   * (train accuracy ≥ `regime.minTrainAccuracy`): for claims about models the paper trains to
   * convergence, e.g. SAM against SGD, where an under-trained SAM model says nothing about SAM.
   */
  readonly fitted?: readonly string[];
  readonly regime: Regime;
  /** Number of classes when the results do not record it (older results). */
  readonly classes?: number;
}

/**
 * Why a claim cannot be tested on one run (docs/protocol.md §5.1): the undefended model is not in
 * the paper's regime, a compared model collapsed, or a model that must fit (`fitted`) did not.
 * Undefined when it can. Missing rows are not
 * a testability problem but a missing comparator: see {@link missingRows}.
 */
export function testabilityProblem(input: TestabilityInput): string | undefined {
  const classes = classesOf(input.results, input.classes);
  const find = (label: string) => input.results.rows.find((r) => r.label === label);
  const problems: string[] = [];
  if (input.undefended !== undefined) {
    const base = find(input.undefended);
    const problem = base === undefined ? undefined : regimeProblem(base, classes, input.regime);
    if (problem !== undefined) problems.push(problem);
  }
  for (const label of input.compared) {
    const row = find(label);
    const problem = row === undefined ? undefined : collapseProblem(row, input.results, classes, input.regime);
    if (problem !== undefined) problems.push(problem);
  }
  for (const label of input.fitted ?? []) {
    const row = find(label);
    if (row !== undefined && row.trainAccuracy < input.regime.minTrainAccuracy)
      problems.push(`${label} did not fit its training set (train accuracy ${pct(row.trainAccuracy)} < ${pct(input.regime.minTrainAccuracy)})`);
  }
  return problems.length === 0 ? undefined : problems.join('; ');
}

/** The labels among `labels` that have no row in `results` (a missing comparator makes a claim "not evaluated"). */
export const missingRows = (results: ExperimentResults, labels: readonly string[]): string[] => labels.filter((l) => !results.rows.some((r) => r.label === l));
