import type { DefenseConfig, ExperimentConfig } from '../schema/run-schema';
import type { UnitRole } from '../schema/unit-role';
import type { PreparedData } from '../data/prepare-data';
import type { ArtifactStore } from '../store/artifact-store';

/**
 * One unit as training reads it: the run's plan (`plan/plan-run.ts`) computes it once, with its
 * key, seed and examples; nothing here derives them again.
 */
export interface TrainableUnit {
  readonly role: UnitRole;
  readonly defense: DefenseConfig;
  /** `<defense label>/<role>`, for progress lines. */
  readonly label: string;
  /** The unit's content address in the model cache. */
  readonly key: string;
  /** The seed its training derives everything from (initialisation, batches, the defense's randomness). */
  readonly seed: number;
  readonly memberIdx: readonly number[];
  readonly nonMemberIdx: readonly number[];
  /** The target's validation slice (docs/protocol.md A11), when the partition has one. */
  readonly validationIdx?: readonly number[];
  /** The attacker's or defender's inference examples of its partition role, when it has them. */
  readonly inferenceIdx?: readonly number[];
  /** The key of this same unit trained with another defense (the base of a two-phase defense). */
  keyWith(defense: Pick<DefenseConfig, 'name' | 'params'>): string;
}

/** What every unit of one run shares: its config, data and model cache. */
export interface UnitRun {
  readonly config: ExperimentConfig;
  readonly data: PreparedData;
  readonly store: ArtifactStore;
}
