import { InvalidArgumentError } from '@mia/core';
import type { DefenseRow, ExperimentResults } from '../run/results';

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
  /**
   * The undefended model's best attack accuracy at or above which a privacy claim cannot be tested
   * (every attack already near-perfect: no defense effect can show against it). @default 0.95
   */
  readonly saturationAccuracy: number;
  /** The undefended model's best attack AUC at or above which a privacy claim cannot be tested. @default 0.99 */
  readonly saturationAuc: number;
  /**
   * One line: the regime the paper reports (its undefended model's train / test accuracy, gap, attack
   * level, with the table) next to the thresholds used here, and why these thresholds.
   */
  readonly why: string;
}

/**
 * The thresholds of docs/protocol.md §5.1 (train ≥ 90 %, test ≥ 3× chance, gap > 0, collapse ≤ 1.5×
 * chance, saturated at attack accuracy ≥ 95 % or AUC ≥ 0.99).
 */
export const DEFAULT_REGIME: Regime = {
  minTrainAccuracy: 0.9,
  minTestOverChance: 3,
  minGap: 0,
  collapseOverChance: 1.5,
  saturationAccuracy: 0.95,
  saturationAuc: 0.99,
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

/**
 * A gate threshold applied with the measured value's SE (docs/protocol.md §5.1): met only when the
 * value clears `threshold` by more than 2 SE; within 2 SE of it (either side) the model is "at the
 * edge of the regime"; below it by more than 2 SE (or below it at all when no SE is recorded) the
 * gate fails. Without an SE the plain threshold applies. Returns undefined when met, else the problem.
 */
export function thresholdProblem(what: string, value: number, threshold: number, se: number | undefined, failed: string): string | undefined {
  const hasSe = se !== undefined && Number.isFinite(se) && se > 0;
  if (!hasSe) return value >= threshold ? undefined : failed;
  if (value - threshold > 2 * se) return undefined;
  if (value - threshold < -2 * se) return failed;
  return `${what} at the edge of the regime (${pct(value)} vs ${pct(threshold)}, SE ${(100 * se).toFixed(1)})`;
}

/** Why the undefended model is not in `regime`'s regime, or undefined when it is; each threshold applied with its SE when the row records one. */
export function regimeProblem(undefended: DefenseRow, classes: number, r: Regime): string | undefined {
  const chance = 1 / classes;
  const seTrain = undefended.se?.trainAccuracy;
  const seTest = undefended.se?.testAccuracy;
  const gap = undefended.trainAccuracy - undefended.testAccuracy;
  const seGap = seTrain === undefined || seTest === undefined ? undefined : Math.hypot(seTrain, seTest);
  const problems = [
    thresholdProblem(
      'undefended train accuracy',
      undefended.trainAccuracy,
      r.minTrainAccuracy,
      seTrain,
      `undefended train accuracy ${pct(undefended.trainAccuracy)} < ${pct(r.minTrainAccuracy)}`,
    ),
    thresholdProblem(
      'undefended test accuracy over chance',
      undefended.testAccuracy,
      r.minTestOverChance * chance,
      seTest,
      `undefended test accuracy ${pct(undefended.testAccuracy)} < ${r.minTestOverChance}× chance (${pct(r.minTestOverChance * chance)})`,
    ),
    // The gap must exceed minGap strictly: a gap equal to it is not met.
    gap > r.minGap || seGap !== undefined
      ? thresholdProblem('undefended generalization gap', gap, r.minGap, seGap, `undefended generalization gap ${pct(gap)} ≤ ${pct(r.minGap)}`)
      : `undefended generalization gap ${pct(gap)} ≤ ${pct(r.minGap)}`,
  ].filter((p): p is string => p !== undefined);
  return problems.length === 0 ? undefined : problems.join(', ');
}

/**
 * Why a privacy claim cannot be tested because the undefended model's attacks are saturated (best
 * attack accuracy ≥ `saturationAccuracy` or best AUC ≥ `saturationAuc`), or undefined.
 */
export function saturationProblem(undefended: DefenseRow, r: Regime): string | undefined {
  if (undefended.attacks.length === 0) return undefined;
  const best = (key: 'accuracy' | 'auc') => undefended.attacks.reduce((m, a) => (a[key] > m[key] ? a : m));
  const acc = best('accuracy');
  const auc = best('auc');
  const parts: string[] = [];
  if (acc.accuracy >= r.saturationAccuracy) parts.push(`${acc.attack} attack accuracy ${pct(acc.accuracy)} ≥ ${pct(r.saturationAccuracy)}`);
  if (auc.auc >= r.saturationAuc) parts.push(`${auc.attack} AUC ${auc.auc.toFixed(3)} ≥ ${r.saturationAuc}`);
  return parts.length === 0 ? undefined : `saturated (undefended ${parts.join(', ')}: no defense effect can show)`;
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
  /**
   * What the claim is about: a 'privacy' claim (attack advantage, AUC, P1, loss gap) is also not
   * testable when the undefended model's attacks are saturated; a 'utility' claim (accuracy) is not.
   * @default 'privacy'
   */
  readonly kind?: 'privacy' | 'utility';
}

/**
 * Why a claim cannot be tested on one run (docs/protocol.md §5.1): the undefended model is not in
 * the paper's regime (each threshold applied with its SE: at the edge counts as not in it), its
 * attacks are saturated (privacy claims), a compared model collapsed, or a model that must fit
 * (`fitted`) did not. Undefined when it can. Missing rows are not a testability problem but a
 * missing comparator: see {@link missingRows}.
 */
export function testabilityProblem(input: TestabilityInput): string | undefined {
  const classes = classesOf(input.results, input.classes);
  const find = (label: string) => input.results.rows.find((r) => r.label === label);
  const problems: string[] = [];
  if (input.undefended !== undefined) {
    const base = find(input.undefended);
    const problem = base === undefined ? undefined : regimeProblem(base, classes, input.regime);
    if (problem !== undefined) problems.push(problem);
    const saturated = base === undefined || (input.kind ?? 'privacy') !== 'privacy' ? undefined : saturationProblem(base, input.regime);
    if (saturated !== undefined) problems.push(saturated);
  }
  for (const label of input.compared) {
    const row = find(label);
    const problem = row === undefined ? undefined : collapseProblem(row, input.results, classes, input.regime);
    if (problem !== undefined) problems.push(problem);
  }
  for (const label of input.fitted ?? []) {
    const row = find(label);
    const problem =
      row === undefined
        ? undefined
        : thresholdProblem(
            `${label}'s train accuracy`,
            row.trainAccuracy,
            input.regime.minTrainAccuracy,
            row.se?.trainAccuracy,
            `${label} did not fit its training set (train accuracy ${pct(row.trainAccuracy)} < ${pct(input.regime.minTrainAccuracy)})`,
          );
    if (problem !== undefined) problems.push(problem);
  }
  return problems.length === 0 ? undefined : problems.join('; ');
}

/** The labels among `labels` that have no row in `results` (a missing comparator makes a claim "not evaluated"). */
export const missingRows = (results: ExperimentResults, labels: readonly string[]): string[] => labels.filter((l) => !results.rows.some((r) => r.label === l));
