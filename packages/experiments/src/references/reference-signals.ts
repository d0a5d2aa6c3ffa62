import { signalsFromLogits, type ModelSignals } from '@mia/attacks';
import type { ArtifactStore } from '../store/artifact-store';
import { referenceExamples } from '../plan/reference-membership';
import type { RunPlan } from '../plan/plan-run';
import { trainUnit, type TrainUnitOptions } from '../train/train-unit';

/**
 * The reference models of a run as the attacks use them (docs/protocol.md §3.8, §3.9): each model's
 * signals on the audit examples (the target's members, then its non-members, the order every attack
 * of the run scores them in), followed by the population (RMIA's z: examples neither the target nor
 * any reference model trains on), and which of those examples each model trained on.
 */
export interface RunReferences {
  /** One {@link ModelSignals} per reference model over `auditSize + populationSize` examples. */
  readonly models: readonly ModelSignals[];
  /** `keep[k][i] = 1` when model k trained on example i (same order as `models`). */
  readonly keep: readonly Uint8Array[];
  /** The audit examples (target members then non-members) at the start of every row. */
  readonly auditSize: number;
  /** The population examples after them. */
  readonly populationSize: number;
  /** Dataset indices of the population examples, in order. */
  readonly population: readonly number[];
  /** Training time of each model in seconds (from its cache entry; 0 for imported models). */
  readonly seconds: readonly number[];
  /** Per model: trained in this run, read from the cache, or imported. */
  readonly cache: ReadonlyArray<'hit' | 'miss' | 'imported'>;
  /**
   * Imported models only: how each was trained, from its `hparams.json` (`architecture`, `training`,
   * `data`; undefined for a model without one), for the audit doctor's `training-mismatch` check.
   */
  readonly settings?: ReadonlyArray<Readonly<Record<string, unknown>> | undefined>;
}

/**
 * Row-major logits over `order` (dataset indices) from a unit's logits on its members and scored
 * non-members. @throws Error when an index of `order` is in neither.
 */
export function logitsInOrder(
  order: readonly number[],
  parts: ReadonlyArray<{ readonly indices: readonly number[]; readonly logits: Float32Array }>,
  numClasses: number,
): Float32Array {
  const where = new Map<number, [Float32Array, number]>();
  for (const { indices, logits } of parts) indices.forEach((index, row) => where.set(index, [logits, row]));
  const out = new Float32Array(order.length * numClasses);
  order.forEach((index, j) => {
    const at = where.get(index);
    if (at === undefined) throw new Error(`logitsInOrder: example ${index} has no logits`);
    out.set(at[0].subarray(at[1] * numClasses, (at[1] + 1) * numClasses), j * numClasses);
  });
  return out;
}

/**
 * Trains (or reads from the cache) the reference models of a run's plan, each a unit like the
 * targets and shadows (content-addressed, under a claim, resumable), and returns their signals on the
 * audit examples and the population with their keep masks.
 * @param trainedHere - keys of the units a placement trained in this run (reported as trained, not as cache hits).
 */
export async function trainReferences(
  plan: RunPlan,
  store: ArtifactStore,
  options: TrainUnitOptions,
  trainedHere: ReadonlySet<string> = new Set(),
): Promise<RunReferences> {
  const { config, data } = plan;
  const { pool, population } = referenceExamples(data.partition.roles);
  const order = [...pool, ...population];
  const { numClasses } = data.dataset;
  const labels = Int32Array.from(order, (i) => data.dataset.y[i]!);
  const models: ModelSignals[] = [];
  const seconds: number[] = [];
  const cache: Array<'hit' | 'miss'> = [];
  for (const reference of plan.references) {
    const unit = await trainUnit(reference, { config, data, store }, { ...options, trainedHere: trainedHere.has(reference.key) });
    const logits = logitsInOrder(
      order,
      [
        { indices: reference.memberIdx, logits: unit.members.logits! },
        { indices: reference.nonMemberIdx, logits: unit.nonMembers.logits! },
      ],
      numClasses,
    );
    models.push(signalsFromLogits(logits, labels, numClasses));
    seconds.push(unit.seconds);
    cache.push(unit.cache);
  }
  const keep = plan.referenceKeep.map((row) => {
    const full = new Uint8Array(order.length);
    full.set(row);
    return full;
  });
  return { models, keep, auditSize: pool.length, populationSize: population.length, population, seconds, cache };
}
