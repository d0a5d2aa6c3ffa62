import { InvalidArgumentError } from '@mia/core';
import type { DefenseRow, ExperimentResults } from './results';

/**
 * The regime values a paper reports for its undefended model (fractions), with where it reports them:
 * what a reproduction's gate must let through (docs/protocol.md §5.1, "every gate can pass").
 */
export interface PaperRegime {
  readonly trainAccuracy?: number;
  readonly testAccuracy?: number;
  /** The paper's best attack accuracy (balanced) on the undefended model, when it reports one. */
  readonly bestAttackAccuracy?: number;
  /** Where: "Table 4 (SGD, CIFAR-10)". */
  readonly source: string;
}

/**
 * The regime a paper's claims presuppose (docs/protocol.md §5.1): the undefended model fits its
 * training set, generalises well above chance, and overfits; no compared model collapsed. Each
 * reproduction states its thresholds and why (`why`), and the paper's own values (`paper`). The
 * saturation limits are not part of a regime: saturation is a property of a model, decided the same
 * way for every reproduction that uses it ({@link SATURATION}).
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
   * One line: the regime the paper reports (its undefended model's train / test accuracy, gap, attack
   * level, with the table) next to the thresholds used here, and why these thresholds.
   */
  readonly why: string;
  /** The paper's own values for this regime; the gate must pass a model at them (tested for every reproduction). */
  readonly paper?: PaperRegime;
}

/**
 * When a model's attacks are saturated (docs/protocol.md §5.1): its best attack accuracy ≥ 95 % or its
 * best AUC ≥ 0.99, counting every attack evaluated on it (the runner's and any a reproduction runs
 * itself). Fixed for the whole toolkit so that two reproductions using the same model cannot gate it
 * differently.
 */
export const SATURATION = { accuracy: 0.95, auc: 0.99 } as const;

/**
 * The thresholds of docs/protocol.md §5.1 (train ≥ 90 %, test ≥ 3× chance, gap > 0, collapse ≤ 1.5×
 * chance).
 */
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

/**
 * A gate threshold applied with the measured value's SE (docs/protocol.md §5.1). A gate is a
 * precondition, not a claim: it is met when the value reaches `threshold`; below it but within 2 SE
 * the model is "at the edge of the regime" (not testable, saying so); below it by more than 2 SE (or
 * below it at all when no SE is recorded) the gate fails. The value is not asked to clear the
 * threshold by 2 SE: on a bounded quantity (a train accuracy near 100 %) that would make a threshold
 * near the bound unreachable for any model. Returns undefined when met, else the problem.
 */
export function thresholdProblem(what: string, value: number, threshold: number, se: number | undefined, failed: string): string | undefined {
  if (value >= threshold) return undefined;
  const hasSe = se !== undefined && Number.isFinite(se) && se > 0;
  if (!hasSe || value - threshold < -2 * se) return failed;
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
    gap > r.minGap
      ? undefined
      : thresholdProblem(
          'undefended generalization gap',
          gap,
          r.minGap + Number.EPSILON,
          seGap,
          `undefended generalization gap ${pct(gap)} ≤ ${pct(r.minGap)}`,
        ),
  ].filter((p): p is string => p !== undefined);
  return problems.length === 0 ? undefined : problems.join(', ');
}

/** An attack evaluated on a model outside the runner (a reproduction's own protocol): its name, balanced accuracy and AUC. */
export interface ExternalAttack {
  readonly attack: string;
  readonly accuracy: number;
  readonly auc: number;
}

/**
 * Why a privacy claim cannot be tested because the undefended model's attacks are saturated (best
 * attack accuracy ≥ {@link SATURATION}`.accuracy` or best AUC ≥ `.auc`), or undefined: decided from
 * every attack evaluated on the model, the runner's (`undefended.attacks`) and `extra` ones a
 * reproduction ran itself, so one model gets one answer (docs/protocol.md §5.1).
 */
export function saturationProblem(undefended: DefenseRow, extra: readonly ExternalAttack[] = []): string | undefined {
  const attacks: ExternalAttack[] = [...undefended.attacks.map((a) => ({ attack: a.attack, accuracy: a.accuracy, auc: a.auc })), ...extra];
  if (attacks.length === 0) return undefined;
  const best = (key: 'accuracy' | 'auc') => attacks.reduce((m, a) => (a[key] > m[key] ? a : m));
  const acc = best('accuracy');
  const auc = best('auc');
  const parts: string[] = [];
  if (acc.accuracy >= SATURATION.accuracy) parts.push(`${acc.attack} attack accuracy ${pct(acc.accuracy)} ≥ ${pct(SATURATION.accuracy)}`);
  if (auc.auc >= SATURATION.auc) parts.push(`${auc.attack} AUC ${auc.auc.toFixed(3)} ≥ ${SATURATION.auc}`);
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
  /**
   * A convergence rule for compared rows (a pre-registered "not testable when far from converged"):
   * each of `rows` whose test accuracy is below the undefended row's by more than `maxTestDrop`
   * (a fraction; by more than 2 SE of the difference when SEs are recorded) is far from converged,
   * and an under-trained model leaks less for that reason alone, so it cannot make a claim hold.
   * `why` states the criterion (ours) and its reason.
   */
  readonly convergence?: Convergence;
  /**
   * Labels of comparator rows (baselines a claim compares a defense against) that must lower leakage
   * below the undefended row, as the paper's do: one whose highest attack advantage is not below the
   * undefended row's makes the claim "not testable: comparator ineffective".
   */
  readonly comparators?: readonly string[];
  /** Attacks a reproduction evaluated on the undefended model outside the runner (included in the saturation check). */
  readonly extraAttacks?: readonly ExternalAttack[];
}

/** A convergence rule for compared rows ({@link TestabilityInput.convergence}). */
export interface Convergence {
  readonly rows: readonly string[];
  /** Largest allowed test-accuracy drop below the undefended row (a fraction, e.g. 0.05). */
  readonly maxTestDrop: number;
  /** The criterion and its reason, labelled as ours (printed with a failure). */
  readonly why: string;
}

/** Why a compared row is far from converged under `rule` (see {@link Convergence}), or undefined. */
export function convergenceProblem(row: DefenseRow, undefended: DefenseRow, rule: Convergence): string | undefined {
  const drop = undefended.testAccuracy - row.testAccuracy;
  const seA = row.se?.testAccuracy;
  const seB = undefended.se?.testAccuracy;
  const se = seA === undefined || seB === undefined ? 0 : Math.hypot(seA, seB);
  if (drop - rule.maxTestDrop <= 2 * se) return undefined;
  return `${row.label} far from converged (test accuracy ${pct(row.testAccuracy)} vs undefended ${pct(undefended.testAccuracy)}: ${(100 * drop).toFixed(1)} points below, more than ${(100 * rule.maxTestDrop).toFixed(1)} + 2 SE; ${rule.why})`;
}

/**
 * Why a comparator row is ineffective, or undefined when it is not: its highest attack advantage must
 * lie below the undefended row's by more than 2 SE of the difference when the rows record SEs (as
 * every other gate is applied with its SE, docs/protocol.md §5.1); a drop within 2 SE is at the edge,
 * and a comparison with that comparator tests nothing either.
 */
export function comparatorProblem(row: DefenseRow, undefended: DefenseRow): string | undefined {
  const drop = undefended.maxAdvantage - row.maxAdvantage;
  const seA = row.se?.maxAdvantage;
  const seB = undefended.se?.maxAdvantage;
  const se = seA === undefined || seB === undefined ? 0 : Math.hypot(seA, seB);
  if (drop > 2 * se && drop > 0) return undefined;
  const why = `(the paper's ${row.label} lowers leakage; this one does not, so a comparison with it tests nothing)`;
  if (drop > 0)
    return `comparator ineffective: ${row.label}'s highest attack advantage ${pct(row.maxAdvantage)} is below the undefended model's ${pct(undefended.maxAdvantage)} by ${(100 * drop).toFixed(1)} points, within 2 SE (SE ${(100 * se).toFixed(1)}): at the edge ${why}`;
  return `comparator ineffective: ${row.label}'s highest attack advantage ${pct(row.maxAdvantage)} is not below the undefended model's ${pct(undefended.maxAdvantage)} ${why}`;
}

/**
 * Why a claim cannot be tested on one run (docs/protocol.md §5.1): the undefended model is not in
 * the paper's regime (each threshold applied with its SE: at the edge counts as not in it), its
 * attacks are saturated (privacy claims; every attack on it counted, `extraAttacks` included), a
 * compared model collapsed, a model that must fit (`fitted`) did not, a compared row is far from
 * converged (`convergence`), or a comparator does not lower leakage (`comparators`, privacy claims). Undefined when it can. Missing rows are not a testability problem but a
 * missing comparator: see {@link missingRows}.
 */
export function testabilityProblem(input: TestabilityInput): string | undefined {
  const classes = classesOf(input.results, input.classes);
  const find = (label: string) => input.results.rows.find((r) => r.label === label);
  const problems: string[] = [];
  const base = input.undefended === undefined ? undefined : find(input.undefended);
  if (base !== undefined) {
    const problem = regimeProblem(base, classes, input.regime);
    if (problem !== undefined) problems.push(problem);
    const saturated = (input.kind ?? 'privacy') !== 'privacy' ? undefined : saturationProblem(base, input.extraAttacks);
    if (saturated !== undefined) problems.push(saturated);
    for (const label of input.convergence?.rows ?? []) {
      const row = find(label);
      const far = row === undefined ? undefined : convergenceProblem(row, base, input.convergence!);
      if (far !== undefined) problems.push(far);
    }
    for (const label of input.comparators ?? []) {
      const row = find(label);
      const inert = row === undefined || (input.kind ?? 'privacy') !== 'privacy' ? undefined : comparatorProblem(row, base);
      if (inert !== undefined) problems.push(inert);
    }
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
