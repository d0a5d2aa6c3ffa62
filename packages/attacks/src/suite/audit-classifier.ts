import { InvalidArgumentError, checkNonNegativeInteger, deriveSeed, seededRandom, subsetData, type Classifier, type LabeledData } from '@mia/core';
import type { ReferenceAttack, ShadowAttack } from '../attacks/attack';
import { computeSignals, type ComputeSignalsOptions } from '../signals/compute-signals';
import { concatSignals } from '../signals/concat-signals';
import { flipNoiseCounts, type FlipNoiseOptions } from '../signals/flip-noise-counts';
import type { ModelSignals, SplitSignals } from '../signals/model-signals';
import { concatData } from './concat-data';
import { runAttackSuite, type AttackSuiteResult } from './run-attack-suite';

/** Which model an injected trainer is asked for. */
export interface ShadowRole {
  readonly kind: 'shadow' | 'reference';
  /** 0-based index among the models of that kind. */
  readonly index: number;
}

/** Trains a shadow or reference model on `data` the way the target was trained (same defense: adaptive attacker, PROTOCOL §3.7). */
export type TrainShadow = (data: LabeledData, role: ShadowRole, seed: number) => Promise<Classifier>;

/** Options of {@link auditClassifier}. */
export interface AuditClassifierOptions {
  /** The target's members (its training data) and non-members to evaluate on. */
  readonly targetMembers: LabeledData;
  readonly targetNonMembers: LabeledData;
  /** The shadow partition (or, with `shadowSource: 'target'`, the attacker's known members `tr` and reference non-members `ref`). */
  readonly shadowMembers?: LabeledData;
  readonly shadowNonMembers?: LabeledData;
  /** Trains shadows and references (injected: `@mia/attacks` never builds models). */
  readonly trainShadow?: TrainShadow;
  /** `'trained'`: shadows trained by `trainShadow`; `'target'`: no shadow, the target's own signals on the known data (SELENA, PROTOCOL §1.5). @default 'trained' */
  readonly shadowSource?: 'trained' | 'target';
  /** Number of shadow models; with k > 1 each trains on a random half of the shadow pool (CRL). @default 1 */
  readonly numShadows?: number;
  /** Number of reference models (even), trained in complementary pairs on halves of the audit set (PROTOCOL §1.7). @default 0 */
  readonly numReferences?: number;
  readonly attacks?: readonly ShadowAttack[];
  readonly referenceAttacks?: readonly ReferenceAttack[];
  /** Signal options (queries, input gradients, batch size) used for every model. */
  readonly signals?: Omit<ComputeSignalsOptions, 'indices'>;
  /** Also compute feature-flip counts (label-only attack on binary data). */
  readonly flipNoise?: FlipNoiseOptions;
  readonly fprs?: readonly number[];
  /** @default 0 */
  readonly seed?: number;
}

/** Signals of one model; reference models skip what only shadow attacks use (gradients, flip counts) (internal). */
function signalsOf(model: Classifier, data: LabeledData, options: AuditClassifierOptions, reference = false): ModelSignals {
  if (reference) return computeSignals(model, data, { ...options.signals, inputGradients: false });
  const base = computeSignals(model, data, options.signals);
  return options.flipNoise === undefined ? base : { ...base, ...flipNoiseCounts(model, data, options.flipNoise) };
}

/**
 * Audits a target {@link Classifier} end to end: computes its signals once, trains shadow and
 * reference models with the injected `trainShadow` (disposing each after its signals are taken),
 * and runs {@link runAttackSuite}. Reference models are trained on complementary random halves of
 * the audit set `targetMembers ∪ targetNonMembers`, so `keep` is known (PROTOCOL §1.7).
 *
 * @returns The {@link AttackSuiteResult}.
 * @throws InvalidArgumentError when shadow attacks have no shadow data or trainer, or `numReferences` is odd.
 * @see docs/protocol.md §3 (attacks), §3.7 (adaptive shadow), §1.7 (reference pairs).
 */
export async function auditClassifier(target: Classifier, options: AuditClassifierOptions): Promise<AttackSuiteResult> {
  const fn = 'auditClassifier';
  const seed = options.seed ?? 0;
  const attacks = options.attacks ?? [];
  const referenceAttacks = options.referenceAttacks ?? [];
  const numShadows = options.numShadows ?? 1;
  const numReferences = options.numReferences ?? 0;
  checkNonNegativeInteger(fn, 'numReferences', numReferences);
  if (numReferences % 2 !== 0) throw new InvalidArgumentError(`${fn}: numReferences must be even (complementary pairs), got ${numReferences}`);
  const targetSplit: SplitSignals = {
    members: signalsOf(target, options.targetMembers, options),
    nonMembers: signalsOf(target, options.targetNonMembers, options),
  };
  let shadow: SplitSignals | undefined;
  if (attacks.length > 0) {
    const { shadowMembers, shadowNonMembers, trainShadow } = options;
    if (shadowMembers === undefined || shadowNonMembers === undefined)
      throw new InvalidArgumentError(`${fn}: shadow attacks need shadowMembers and shadowNonMembers`);
    if (options.shadowSource === 'target') {
      shadow = { members: signalsOf(target, shadowMembers, options), nonMembers: signalsOf(target, shadowNonMembers, options) };
    } else {
      if (trainShadow === undefined) throw new InvalidArgumentError(`${fn}: shadow attacks need trainShadow (or shadowSource: 'target')`);
      const pool = concatData(shadowMembers, shadowNonMembers);
      const parts: SplitSignals[] = [];
      for (let k = 0; k < numShadows; k++) {
        const perm =
          numShadows === 1 ? Int32Array.from({ length: pool.size }, (_, i) => i) : seededRandom(deriveSeed(seed, 'shadow-split', k)).permutation(pool.size);
        const cut = numShadows === 1 ? shadowMembers.size : pool.size >> 1;
        const [inside, outside] = [subsetData(pool, perm.subarray(0, cut)), subsetData(pool, perm.subarray(cut))];
        const model = await trainShadow(inside, { kind: 'shadow', index: k }, deriveSeed(seed, 'shadow', k));
        try {
          parts.push({ members: signalsOf(model, inside, options), nonMembers: signalsOf(model, outside, options) });
        } finally {
          model.dispose();
        }
      }
      shadow = { members: concatSignals(parts.map((p) => p.members)), nonMembers: concatSignals(parts.map((p) => p.nonMembers)) };
    }
  }
  let audit;
  if (referenceAttacks.length > 0) {
    if (options.trainShadow === undefined || numReferences === 0)
      throw new InvalidArgumentError(`${fn}: reference attacks need trainShadow and numReferences ≥ 2`);
    const auditData = concatData(options.targetMembers, options.targetNonMembers);
    const models: ModelSignals[] = [];
    const keep: Uint8Array[] = [];
    for (let p = 0; p < numReferences / 2; p++) {
      const perm = seededRandom(deriveSeed(seed, 'reference-pair', p)).permutation(auditData.size);
      const half = auditData.size >> 1;
      for (const [j, idx] of [perm.subarray(0, half), perm.subarray(half)].entries()) {
        const model = await options.trainShadow(subsetData(auditData, idx), { kind: 'reference', index: 2 * p + j }, deriveSeed(seed, 'reference', 2 * p + j));
        try {
          models.push(signalsOf(model, auditData, options, true));
        } finally {
          model.dispose();
        }
        const row = new Uint8Array(auditData.size);
        for (const i of idx) row[i] = 1;
        keep.push(row);
      }
    }
    const isMember = Uint8Array.from({ length: auditData.size }, (_, i) => (i < options.targetMembers.size ? 1 : 0));
    audit = { target: concatSignals([targetSplit.members, targetSplit.nonMembers]), isMember, references: { models, keep }, attacks: referenceAttacks };
  }
  return runAttackSuite({ target: targetSplit, shadow, attacks, audit, fprs: options.fprs });
}
