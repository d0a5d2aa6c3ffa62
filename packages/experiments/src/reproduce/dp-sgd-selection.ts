import { InvalidArgumentError } from '@mia/core';
import { noiseMultiplierFor, searchEpsilonOf, type DpTraining } from '@mia/defense-dp';
import { dpSgdSteps } from '../defenses/dp-sgd';
import type { DefenseConfig, DefenseSearch } from '../schema/run-schema';
import { selectHyperparameter } from './selection';
import { isNotRun, type ReproductionTable, type RunOutcome, type TableCell } from './types';

/**
 * One DP-SGD training setting tried on the validation slice: the expected batch q·N, the data passes
 * (epochs) and the learning rate. σ is not part of it: the runner's `dp-sgd` defense takes it from the
 * accountant for the target ε at the steps this setting runs (`epochs · ceil(N / batch)`).
 */
export interface DpSgdSetting {
  readonly batch: number;
  readonly epochs: number;
  readonly lr: number;
}

/**
 * The candidate grid of a DP-SGD selection: every expected batch × every epoch count × every learning
 * rate. Each epoch count is a number of data passes shared by every batch, so a larger batch runs
 * fewer, less noisy steps over the same data (σ follows the steps), not more passes.
 */
export interface DpSgdGrid {
  readonly batches: readonly number[];
  readonly epochs: readonly number[];
  readonly lrs: readonly number[];
}

/** The candidate of a selection: a setting and what its target measured. */
export interface DpSgdChoice {
  /** The setting with the highest validation accuracy (ties: the first in grid order). */
  readonly setting: DpSgdSetting;
  readonly reason: string;
  /** Validation accuracy of every candidate, in the order of the settings. */
  readonly validation: readonly number[];
  /**
   * The grid dimensions in which the setting is the smallest or largest value tried (of those with
   * more than one value), e.g. `largest batch`: where the grid should be extended (docs/protocol.md §5.3).
   */
  readonly edges: readonly string[];
}

/** The dimensions (batch, epochs, rate) in which `s` is at the smallest or largest of the values `settings` try. */
function gridEdges(s: DpSgdSetting, settings: readonly DpSgdSetting[]): string[] {
  const dims = [
    ['batch', (x: DpSgdSetting) => x.batch],
    ['epochs', (x: DpSgdSetting) => x.epochs],
    ['rate', (x: DpSgdSetting) => x.lr],
  ] as const;
  return dims.flatMap(([name, get]) => {
    const values = [...new Set(settings.map(get))];
    if (values.length < 2) return [];
    const v = get(s);
    return v === Math.min(...values) ? [`smallest ${name}`] : v === Math.max(...values) ? [`largest ${name}`] : [];
  });
}

const checkList = (fn: string, name: string, values: readonly number[], ok: (v: number) => boolean, expected: string) => {
  if (values.length === 0) throw new InvalidArgumentError(`${fn}: grid.${name} must hold at least one value, got []`);
  values.forEach((v, i) => {
    if (!ok(v)) throw new InvalidArgumentError(`${fn}: grid.${name}[${i}] must be ${expected}, got ${String(v)}`);
  });
  if (new Set(values).size !== values.length) throw new InvalidArgumentError(`${fn}: grid.${name} must not repeat a value, got [${values.join(', ')}]`);
};

/**
 * The settings of a grid, batch-major (batch, then epochs, then learning rate).
 * @param members - The training set size N the settings run on: every batch must be at most N.
 * @throws InvalidArgumentError naming the grid entry when a list is empty or repeats a value, a batch is
 *   not an integer in [1, members], an epoch count not a positive integer, or a rate not positive and finite.
 */
export function dpSgdSettings(grid: DpSgdGrid, members: number): DpSgdSetting[] {
  const fn = 'dpSgdSettings';
  if (!Number.isInteger(members) || members < 1) throw new InvalidArgumentError(`${fn}: members must be a positive integer, got ${String(members)}`);
  checkList(fn, 'batches', grid.batches, (b) => Number.isInteger(b) && b >= 1 && b <= members, `an integer in [1, members = ${members}]`);
  checkList(fn, 'epochs', grid.epochs, (e) => Number.isInteger(e) && e >= 1, 'a positive integer');
  checkList(fn, 'lrs', grid.lrs, (lr) => Number.isFinite(lr) && lr > 0, 'a positive finite number');
  return grid.batches.flatMap((batch) => grid.epochs.flatMap((epochs) => grid.lrs.map((lr) => ({ batch, epochs, lr }))));
}

/** A setting in words: `B=512 E=30 lr=0.5`. */
export const dpSgdSettingName = (s: DpSgdSetting): string => `B=${s.batch} E=${s.epochs} lr=${s.lr}`;

/** The label of a candidate's model in a selection run: the DP-SGD row's label and the setting. */
export const dpSgdCandidateLabel = (label: string, s: DpSgdSetting): string => `${label} ${dpSgdSettingName(s)}`;

/** What a setting sets in a `dp-sgd` defense's params: q = batch / members, the epochs and the rate. */
export function dpSgdSettingParams(s: DpSgdSetting, members: number): { sampleRate: number; epochs: number; lr: number } {
  return { sampleRate: s.batch / members, epochs: s.epochs, lr: s.lr };
}

const labelOf = (d: DefenseConfig) => d.label ?? d.name;

function checkDpDefense(fn: string, d: DefenseConfig, where: string): void {
  if (d.name !== 'dp-sgd') throw new InvalidArgumentError(`${fn}: ${where}.name must be "dp-sgd", got ${JSON.stringify(d.name)}`);
  if (d.params.targetEpsilon === undefined)
    throw new InvalidArgumentError(
      `${fn}: ${where}.params.targetEpsilon must be given (σ must follow each setting's steps), got noiseMultiplier ${String(d.params.noiseMultiplier)}`,
    );
}

/**
 * The defenses of a selection run: each `dp-sgd` defense (with `targetEpsilon`, so that σ follows each
 * candidate's steps) once per setting, labelled {@link dpSgdCandidateLabel}. Train them as targets
 * alone (`attacks: []`) on the partition the DP-SGD rows will use, and read their validation accuracy
 * (docs/protocol.md §5.3).
 * @throws InvalidArgumentError when a defense is not `dp-sgd` or has no `targetEpsilon`.
 */
export function dpSgdSelectionDefenses(
  defenses: readonly DefenseConfig[],
  settings: readonly DpSgdSetting[],
  members: number,
): Array<DefenseConfig & { label: string }> {
  defenses.forEach((d, i) => checkDpDefense('dpSgdSelectionDefenses', d, `defenses[${i}]`));
  return defenses.flatMap((d) =>
    settings.map((s) => ({ ...d, label: dpSgdCandidateLabel(labelOf(d), s), params: { ...d.params, ...dpSgdSettingParams(s, members) } })),
  );
}

/**
 * Per DP-SGD label, the setting whose target has the highest validation accuracy (docs/protocol.md §5.3,
 * `best-validation`; the evaluation examples take no part); undefined when the selection did not run.
 * @throws InvalidArgumentError when a candidate's row is missing or has no validation accuracy (the
 *   run's partition needs `validation`).
 */
export function selectDpSgdSettings(run: RunOutcome, labels: readonly string[], settings: readonly DpSgdSetting[]): Map<string, DpSgdChoice> | undefined {
  if (isNotRun(run)) return undefined;
  const out = new Map<string, DpSgdChoice>();
  for (const label of labels) {
    const validation = settings.map((s) => {
      const candidate = dpSgdCandidateLabel(label, s);
      const row = run.rows.find((r) => r.label === candidate);
      if (row === undefined) throw new InvalidArgumentError(`selectDpSgdSettings: run must have a row labelled ${JSON.stringify(candidate)}, got none`);
      if (row.validationAccuracy === undefined)
        throw new InvalidArgumentError(
          `selectDpSgdSettings: row ${JSON.stringify(candidate)} must have a validationAccuracy (partition.validation), got undefined`,
        );
      return row.validationAccuracy;
    });
    const { chosen, reason } = selectHyperparameter(
      validation.map((validationAccuracy, value) => ({ value, validationAccuracy })),
      { kind: 'best-validation' },
      { ordered: false },
    );
    const setting = settings[chosen]!;
    const edges = gridEdges(setting, settings);
    out.set(label, {
      setting,
      reason: `${dpSgdSettingName(setting)}: ${reason}${edges.length === 0 ? '' : `; at the grid's edge in ${edges.join(', ')} (a value beyond it was not tried)`}`,
      validation,
      edges,
    });
  }
  return out;
}

/**
 * The `dp-sgd` defenses of `defenses` with their chosen setting's q, epochs and rate; the other
 * defenses, and DP-SGD rows without a choice, unchanged. With `candidates` (the settings the choice
 * was made among, on private data), each chosen row also declares its search, accounted
 * ({@link dpSgdSearch}): the audit doctor and the report then hold the row to the search's ε.
 */
export function withDpSgdSettings<D extends DefenseConfig>(
  defenses: readonly D[],
  choices: ReadonlyMap<string, DpSgdSetting> | undefined,
  members: number,
  candidates?: readonly DpSgdSetting[],
): D[] {
  return defenses.map((d) => {
    const s = d.name === 'dp-sgd' ? choices?.get(labelOf(d)) : undefined;
    if (s === undefined) return d;
    const chosen = { ...d, params: { ...d.params, ...dpSgdSettingParams(s, members) } };
    return candidates === undefined ? chosen : { ...chosen, search: dpSgdSearch(d, candidates, s, members) };
  });
}

const sigmas = new Map<string, number>();
/** σ of a `targetEpsilon` training, memoised (the accountant's search takes ≈ 0.1 s per setting). */
function sigmaFor(targetEpsilon: number, sampleRate: number, steps: number, delta: number): number {
  const key = `${targetEpsilon}:${sampleRate}:${steps}:${delta}`;
  let sigma = sigmas.get(key);
  if (sigma === undefined) {
    sigma = noiseMultiplierFor({ targetEpsilon, sampleRate, steps, delta });
    sigmas.set(key, sigma);
  }
  return sigma;
}

/** The training of a `dp-sgd` defense (with `targetEpsilon`, checked) at a setting, as the runner runs it: σ from the target ε at the setting's steps. */
function trainingAt(d: DefenseConfig, s: DpSgdSetting, members: number): DpTraining {
  const { sampleRate } = dpSgdSettingParams(s, members);
  const { steps } = dpSgdSteps(members, sampleRate, s.epochs);
  return { sampleRate, noiseMultiplier: sigmaFor(d.params.targetEpsilon as number, sampleRate, steps, d.params.delta as number), steps };
}

/**
 * The search a DP-SGD row's setting came out of, accounted (docs/protocol.md §5.3): every candidate
 * was trained on the members, compared on a validation slice (private data), and the chosen setting
 * trained again for the row, so the row's model is post-processing of all of these trainings and its
 * ε is their composition ({@link searchEpsilonOf}, at the row's δ). The bound protects the members;
 * the validation records the comparison reads are not protected by it.
 * @throws InvalidArgumentError when the defense is not `dp-sgd` with `targetEpsilon` and `delta`, or `candidates` is empty.
 */
export function dpSgdSearch(defense: DefenseConfig, candidates: readonly DpSgdSetting[], chosen: DpSgdSetting, members: number): DefenseSearch {
  checkDpDefense('dpSgdSearch', defense, 'defense');
  if (candidates.length === 0) throw new InvalidArgumentError('dpSgdSearch: candidates must hold at least one setting, got []');
  const trainings = [...candidates, chosen].map((s) => trainingAt(defense, s, members));
  const { epsilon } = searchEpsilonOf({ trainings, delta: defense.params.delta as number });
  return { candidates: candidates.length, onPrivateData: true, accounted: true, epsilon };
}

/** The chosen settings of a selection, by label (for {@link withDpSgdSettings}). */
export const chosenDpSgdSettings = (choices: ReadonlyMap<string, DpSgdChoice> | undefined): Map<string, DpSgdSetting> | undefined =>
  choices === undefined ? undefined : new Map([...choices].map(([label, c]) => [label, c.setting]));

/**
 * The selection as a table: one row per setting with each DP-SGD label's validation accuracy (a
 * column per label), then the chosen batch, epochs and rate per label.
 */
export function dpSgdSelectionTable(
  run: RunOutcome,
  labels: readonly string[],
  settings: readonly DpSgdSetting[],
  choices: ReadonlyMap<string, DpSgdChoice> | undefined,
  title = "DP-SGD's expected batch, epochs and learning rate, chosen on the validation slice (best validation accuracy)",
): ReproductionTable {
  const missing = (): TableCell => ({ notRun: isNotRun(run) ? run.notRun : 'not selected' });
  const value = (label: string, f: (c: DpSgdChoice) => number): TableCell => {
    const c = choices?.get(label);
    return c === undefined ? missing() : { ours: f(c) };
  };
  return {
    title,
    columns: labels,
    format: 'num',
    caption:
      "Validation accuracy (a slice of the inference pool, disjoint from the evaluation examples) of each DP-SGD target at each setting (B: expected batch q·N; E: epochs, the data passes; lr: learning rate), σ from the accountant for each setting's steps; the last three rows: the setting chosen per ε.",
    rows: [
      ...settings.map((s, i) => ({ label: dpSgdSettingName(s), cells: labels.map((l) => value(l, (c) => c.validation[i]!)) })),
      { label: 'chosen: expected batch q·N', cells: labels.map((l) => value(l, (c) => c.setting.batch)) },
      { label: 'chosen: epochs', cells: labels.map((l) => value(l, (c) => c.setting.epochs)) },
      { label: 'chosen: learning rate', cells: labels.map((l) => value(l, (c) => c.setting.lr)) },
    ],
  };
}
