import type { ModelSignals } from '@mia/attacks';
import { pastOptionsSchema } from '@mia/defense-past';
import type { PreparedData } from '../data/prepare-data';
import type { DefenseRow } from './results';

/** A run warns when its target's training set has fewer examples per class than this, on average. */
export const MIN_EXAMPLES_PER_CLASS = 5;

/** A trained model whose mean loss on its own training set exceeds this many times ln C (a uniform guess) has diverged. */
export const DIVERGED_LOSS_FACTOR = 3;

/**
 * A warning when the target's members have fewer than {@link MIN_EXAMPLES_PER_CLASS} examples per
 * class on average: the model cannot learn the classes, so its accuracy and the attacks' advantage
 * say little. `undefined` when there are enough.
 */
export function examplesPerClassWarning(data: PreparedData): string | undefined {
  const members = data.partition.roles.target_train;
  const numClasses = data.dataset.numClasses;
  if (members === undefined || numClasses < 2) return undefined;
  const perClass = members.length / numClasses;
  if (perClass >= MIN_EXAMPLES_PER_CLASS) return undefined;
  const counts = new Uint32Array(numClasses);
  for (const i of members) counts[data.dataset.y[i]!]! += 1;
  const empty = counts.filter((c) => c === 0).length;
  return `too few examples per class: the target trains on ${members.length} examples of ${numClasses} classes, ${perClass.toFixed(1)} per class on average${empty > 0 ? ` (${empty} classes have none)` : ''}, fewer than ${MIN_EXAMPLES_PER_CLASS}; accuracy and attack advantage say little at this size (raise partition.maxPerRole or dataset.size)`;
}

/** A learning rate a row's models trained with: `training.lr`, or a path inside the row (`params.lr`), and its value. */
export interface LearningRateKnob {
  readonly path: string;
  readonly value: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The learning rates the models of a defense row trained with, as the config sets them:
 * `training.lr`, except that `dp-sgd`'s `params.lr` replaces it, and PAST trains its phase 1 as its
 * `base` does and tunes with its own `params.lr` (default 0.01).
 * @param defense - The row's defense as the runner has it (grid values applied).
 */
export function learningRateKnobs(
  defense: { readonly name: string; readonly params?: Readonly<Record<string, unknown>> },
  training: { readonly lr: number },
): LearningRateKnob[] {
  const run = { path: 'training.lr', value: training.lr };
  const lr = defense.params?.lr;
  if (defense.name === 'dp-sgd') return [typeof lr === 'number' ? { path: 'params.lr', value: lr } : run];
  if (defense.name !== 'past') return [run];
  const base = defense.params?.base;
  const phase1 =
    isRecord(base) && typeof base.name === 'string'
      ? learningRateKnobs({ name: base.name, params: isRecord(base.params) ? base.params : {} }, training).map((k) =>
          k.path === 'training.lr' ? k : { ...k, path: `params.base.${k.path}` },
        )
      : [run];
  return [...phase1, { path: 'params.lr', value: typeof lr === 'number' ? lr : pastOptionsSchema.fields.lr.default! }];
}

/**
 * A warning when a trained model diverged: its mean cross-entropy on its own members is not finite
 * or above {@link DIVERGED_LOSS_FACTOR} · ln C, worse than guessing uniformly. `undefined` otherwise.
 * @param unit - How the warning names the model, e.g. `"CCQL α=0.5 target"`.
 * @param learningRates - The learning rates the model trained with ({@link learningRateKnobs}), quoted in the advice.
 */
export function divergenceWarning(unit: string, members: ModelSignals, learningRates: readonly LearningRateKnob[]): string | undefined {
  let sum = 0;
  for (const loss of members.loss) sum += loss;
  const mean = sum / Math.max(1, members.size);
  const uniform = Math.log(members.numClasses);
  if (Number.isFinite(mean) && mean <= DIVERGED_LOSS_FACTOR * uniform) return undefined;
  const shown = Number.isFinite(mean) ? mean.toPrecision(3) : String(mean);
  const knobs = learningRates.map((k) => `${k.path.startsWith('params.') ? `the row's ${k.path}` : k.path} (${k.value})`).join(' or ');
  return `${unit} diverged: its mean loss on its own training set is ${shown}, worse than a uniform guess (ln ${members.numClasses} = ${uniform.toFixed(2)}), so its row is meaningless; lower ${knobs} or check the defense's parameters`;
}

/** How a report writes an ε: two decimals, `∞` for no guarantee. */
export const formatEpsilon = (epsilon: number | null): string => (epsilon === null || !Number.isFinite(epsilon) ? '∞' : epsilon.toFixed(2));

/**
 * A warning when a differentially private row's best attack proves a larger ε than its accountant
 * claims (`row.empiricalEpsilon.exceedsAccountant`): the training is not as private as reported — a
 * broken implementation (noise or clipping missing, batch statistics, a data path the accounting
 * does not see), or sampling the accountant does not cover. `undefined` otherwise.
 */
export function brokenDpWarning(row: DefenseRow): string | undefined {
  const e = row.empiricalEpsilon;
  const p = row.privacy;
  if (e?.exceedsAccountant !== true || p === undefined) return undefined;
  const why =
    p.covered === false
      ? `its sampling (${p.sampling ?? 'not Poisson'}) is not what the accountant assumes, or the implementation is broken`
      : 'a broken DP implementation (noise or clipping missing, batch statistics, or a data path the accounting does not see)';
  return `${row.label}: broken DP: its best attack (${e.attack}) proves ε ≥ ${formatEpsilon(e.epsilon)} at ${Math.round(100 * e.confidence)} % confidence (TPR ≥ ${(100 * e.tprLow).toFixed(1)} %, FPR ≤ ${(100 * e.fprHigh).toFixed(1)} %), above the accountant's ε = ${formatEpsilon(p.epsilon)} (δ = ${p.delta}): ${why}`;
}
