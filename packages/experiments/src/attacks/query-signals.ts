import { InvalidArgumentError, type Classifier } from '@mia/core';
import { computeSignals, signalsFromLogits, type ModelSignals, type QueryTransform } from '@mia/attacks';
import { rotateImages, rotationQueries, translateImages, translationQueries } from '@mia/data';
import { deserializeClassifier } from '@mia/models';
import type { ArtifactStore } from '../store/artifact-store';
import { toBytes, toFloats } from '../store/float-bytes';
import { contentHash } from '../store/canonical-hash';
import { attackConfigOf, type ExperimentConfig } from '../schema/run-schema';
import { findAttack } from './registry';
import type { PlannedUnit, RunPlan } from '../plan/plan-run';

/** The augmentation attacks the runner has (docs/protocol.md §3.3). */
export const AUGMENTATION_ATTACKS = ['rotation', 'translation'] as const;
export type AugmentationAttackName = (typeof AUGMENTATION_ATTACKS)[number];

/** Whether `name` is one of {@link AUGMENTATION_ATTACKS}. */
export function isAugmentationAttack(name: string): name is AugmentationAttackName {
  return (AUGMENTATION_ATTACKS as readonly string[]).includes(name);
}

/**
 * The query transforms of an augmentation attack: rotation by `[−r, 0, r]` degrees, or every
 * integer translation with |i| + |j| = d plus the identity (zero fill).
 * @see docs/protocol.md §3.3
 */
export function augmentationQueries(name: AugmentationAttackName, config: ExperimentConfig): QueryTransform[] {
  const { rotationDegrees, translationDistance } = config.augmentation;
  return name === 'rotation'
    ? rotationQueries(rotationDegrees).map((degrees) => (x) => rotateImages(x, degrees))
    : translationQueries(translationDistance).map(
        ([dy, dx]) =>
          (x) =>
            translateImages(x, dy, dx),
      );
}

/**
 * Fails before anything is trained when a config asks for attacks that query augmented images (the
 * built-in `rotation` and `translation`, or any attack whose `needs.queries` is set) on non-image data.
 * @throws InvalidArgumentError naming the attack and the dataset's input shape.
 */
export function checkAugmentationAttacks(config: ExperimentConfig, inputShape: readonly number[]): void {
  const wanted = config.attacks
    .map(attackConfigOf)
    .filter((a) => findAttack(a.name)?.needs.queries !== undefined)
    .map((a) => a.label);
  if (wanted.length > 0 && inputShape.length !== 3) {
    throw new InvalidArgumentError(
      `attacks ${wanted.join(', ')} query augmented images and need image data ([h, w, c]); dataset ${config.dataset.name} has input shape [${inputShape.join(', ')}]`,
    );
  }
}

/** Members' and non-members' signals of each augmented query of one unit. */
export interface UnitQuerySignals {
  readonly members: readonly ModelSignals[];
  readonly nonMembers: readonly ModelSignals[];
  readonly cache: 'hit' | 'miss';
}

/**
 * The logits of an augmentation attack's queries on one trained unit (target or shadow of a
 * defense), from the cache or computed from the unit's cached model (the unperturbed one: these
 * attacks are label-only, docs/protocol.md §4.15) and cached under their own key, so adding the attack
 * to a finished run retrains nothing.
 * @throws Error when the unit itself is not in the store (train it first).
 */
export async function unitQuerySignals(
  plan: RunPlan,
  unit: PlannedUnit,
  attack: AugmentationAttackName,
  store: ArtifactStore,
  onLog?: (line: string) => void,
): Promise<UnitQuerySignals> {
  const { config, data } = plan;
  const { defense, role } = unit;
  const memberIdx = Int32Array.from(unit.memberIdx);
  const nonMemberIdx = Int32Array.from(unit.nonMemberIdx);
  const numClasses = data.dataset.numClasses;
  const base = unit.key;
  const query =
    attack === 'rotation' ? { attack, degrees: config.augmentation.rotationDegrees } : { attack, distance: config.augmentation.translationDistance };
  const key = contentHash({ kind: 'query-logits-1', unit: base, query });
  const labelsOf = (idx: Int32Array) => Int32Array.from(idx, (i) => data.dataset.y[i]!);
  const toSignals = (parts: readonly Float32Array[], idx: Int32Array) => parts.map((logits) => signalsFromLogits(logits, labelsOf(idx), numClasses));
  const transforms = augmentationQueries(attack, config);
  const cached = await store.read(key);
  if (cached !== undefined) {
    const read = (which: string) => transforms.map((_, q) => toFloats(cached.files.get(`${which}.${q}.logits`)!));
    return { members: toSignals(read('members'), memberIdx), nonMembers: toSignals(read('non-members'), nonMemberIdx), cache: 'hit' };
  }
  const entry = await store.read(base);
  const bytes = entry?.files.get('model.bin');
  if (bytes === undefined)
    throw new Error(`unitQuerySignals: the ${role} model of ${defense.label ?? defense.name} is not in the store (${base.slice(0, 12)}); train it first`);
  const model: Classifier = deserializeClassifier(bytes);
  try {
    const logitsOf = (idx: Int32Array) => computeSignals(model, data.dataset, { indices: idx, queries: transforms }).queries!.map((q) => q.logits!);
    const members = logitsOf(memberIdx);
    const nonMembers = logitsOf(nonMemberIdx);
    const files: Record<string, Uint8Array> = {};
    members.forEach((l, q) => {
      files[`members.${q}.logits`] = toBytes(l);
    });
    nonMembers.forEach((l, q) => {
      files[`non-members.${q}.logits`] = toBytes(l);
    });
    await store.write(key, files, { kind: 'query-logits', attack, role, unit: base, config: config.name });
    onLog?.(`queried    ${defense.label ?? defense.name}/${role}: ${attack}, ${transforms.length} queries (${key.slice(0, 12)})`);
    return { members: toSignals(members, memberIdx), nonMembers: toSignals(nonMembers, nonMemberIdx), cache: 'miss' };
  } finally {
    model.dispose();
  }
}
