import {
  augmentationAttack,
  computeSignals,
  featureFlipAttack,
  flipNoiseCounts,
  nnSelAttack,
  metricAttack,
  runAttackSuite,
  selectSignals,
  signalsFromLogits,
  type ModelSignals,
  type ShadowAttack,
} from '@mia/attacks';
import { deriveSeed, seededRandom, type Classifier, type LabeledData } from '@mia/core';
import { applyCropFlip, cropFlipQueries } from '@mia/data';
import type { EvaluationOptions } from './evaluation-options';
import { globalOrClassAttack } from './global-or-class-attack';

/** Single-query attacks in the order of SAM-privacy Table 3. */
export const SINGLE_QUERY_ATTACKS = ['NN', 'Confidence', 'Correctness', 'Entropy', 'Modified entropy'] as const;

/** What the SharpReg-protocol attacks measured on one trained model. */
export interface ModelEvaluation {
  readonly trainAccuracy: number;
  readonly testAccuracy: number;
  /** Attack name → balanced accuracy on the evaluation half, one per split. */
  readonly single: Record<string, number[]>;
  readonly multi: Record<string, number[]>;
  /** Per split: the best single-query / multi-query accuracy. */
  readonly bestSingle: number[];
  readonly bestMulti: number[];
}

const accuracyOf = (s: ModelSignals) => s.correct!.reduce((a, b) => a + b, 0) / s.size;

function singleQueryAttacks(seed: number, nnEpochs: number): ShadowAttack[] {
  return [
    nnSelAttack({ name: 'NN', epochs: nnEpochs, seed }),
    globalOrClassAttack('confidence', 'Confidence'),
    metricAttack('correctness', { name: 'Correctness' }),
    globalOrClassAttack('entropy', 'Entropy'),
    globalOrClassAttack('modifiedEntropy', 'Modified entropy'),
  ];
}

/** Seeded halves of `0..n-1`: [known, evaluation]. */
function halves(n: number, seed: number): [Int32Array, Int32Array] {
  const p = seededRandom(seed).permutation(n);
  const k = Math.floor(n / 2);
  return [p.slice(0, k), p.slice(k)];
}

async function splitAccuracies(
  members: ModelSignals,
  nonMembers: ModelSignals,
  attacksOf: (split: number) => ShadowAttack[],
  splits: number,
  seed: number,
): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (let s = 0; s < splits; s++) {
    const [mKnown, mEval] = halves(members.size, deriveSeed(seed, 'members', s));
    const [nKnown, nEval] = halves(nonMembers.size, deriveSeed(seed, 'non-members', s));
    const attacks = attacksOf(s);
    const suite = await runAttackSuite({
      shadow: { members: selectSignals(members, mKnown), nonMembers: selectSignals(nonMembers, nKnown) },
      target: { members: selectSignals(members, mEval), nonMembers: selectSignals(nonMembers, nEval) },
      attacks,
    }).finally(() => attacks.forEach((a) => a.dispose()));
    for (const a of suite.attacks) (out[a.name] ??= []).push(a.accuracy);
  }
  return out;
}

function multiQuerySignals(model: Classifier, data: LabeledData, indices: readonly number[], options: EvaluationOptions): ModelSignals {
  if (data.inputShape.length === 3) {
    const queries = cropFlipQueries(options.cropPadding).map(
      (view) => (x: import('@tensorflow/tfjs-core').Tensor) => applyCropFlip(x, view, options.cropPadding),
    );
    return computeSignals(model, data, { indices, queries });
  }
  const base = computeSignals(model, data, { indices });
  return { ...base, ...flipNoiseCounts(model, data, { indices, flips: options.flips, repeats: options.flipRepeats }) };
}

const bestPerSplit = (byAttack: Record<string, number[]>, splits: number) =>
  Array.from({ length: splits }, (_, s) => Math.max(...Object.values(byAttack).map((v) => v[s]!)));

/**
 * Runs the SharpReg protocol's attacks on one trained target (SAM-privacy App. C.2–C.3): the
 * members and non-members are halved into attacker-known and evaluation sets by `options.splits`
 * seeded splits; every single-query attack (NN-SEL, confidence, correctness, entropy, m-entropy) and
 * multi-query attack (crop×flip augmentation on images, feature-flip noise on binary data) is fitted
 * on the known half and its balanced accuracy measured on the evaluation half.
 *
 * @param model - the trained target (not disposed here).
 * @param data - its dataset; `members` / `nonMembers` index it.
 * @param released - the logits the defense releases on `members` / `nonMembers` (row-major
 *   `[n, C]`) when they are not the model's own (MemGuard): the single-query attacks see these; the
 *   multi-query attacks are label-only and query the model (MemGuard keeps every label, §4.15).
 * @returns per-attack accuracies per split, the best per split, and train/test accuracy.
 * @see docs/protocol.md §1.5, §3.1–3.5, §5, §7 (SharpReg preset)
 */
export async function evaluateModel(
  model: Classifier,
  data: LabeledData,
  members: readonly number[],
  nonMembers: readonly number[],
  options: EvaluationOptions,
  seed = 0,
  released?: { readonly members: Float32Array; readonly nonMembers: Float32Array },
): Promise<ModelEvaluation> {
  const fromLogits = (logits: Float32Array, idx: readonly number[]) =>
    signalsFromLogits(
      logits,
      Int32Array.from(idx, (i) => data.y[i]!),
      model.numClasses,
    );
  const m = released === undefined ? computeSignals(model, data, { indices: members }) : fromLogits(released.members, members);
  const n = released === undefined ? computeSignals(model, data, { indices: nonMembers }) : fromLogits(released.nonMembers, nonMembers);
  const single = await splitAccuracies(m, n, (s) => singleQueryAttacks(deriveSeed(seed, 'nn', s), options.nnEpochs), options.splits, seed);
  const k = Math.min(options.multiQueryExamples, members.length, nonMembers.length);
  const mq = multiQuerySignals(model, data, members.slice(0, k), options);
  const nq = multiQuerySignals(model, data, nonMembers.slice(0, k), options);
  const image = data.inputShape.length === 3;
  const multiAttacks = (s: number): ShadowAttack[] =>
    image
      ? [
          globalOrClassAttack('queryAccuracy', 'Augmentation (threshold)'),
          augmentationAttack({ name: 'Augmentation (NN)', epochs: options.augmentationNnEpochs, seed: deriveSeed(seed, 'aug', s) }),
        ]
      : [featureFlipAttack({ name: 'Feature flip' })];
  const multi = await splitAccuracies(mq, nq, multiAttacks, options.splits, deriveSeed(seed, 'multi'));
  return {
    trainAccuracy: accuracyOf(m),
    testAccuracy: accuracyOf(n),
    single,
    multi,
    bestSingle: bestPerSplit(single, options.splits),
    bestMulti: bestPerSplit(multi, options.splits),
  };
}
