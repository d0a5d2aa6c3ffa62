import { InvalidArgumentError, deriveSeed, seededRandom } from '@mia/core';
import type { ExperimentConfig } from '../schema/run-schema';
import type { ReferenceRole } from '../schema/unit-role';

/** How the training sets of a run's reference models are drawn (`references.scheme`). */
export type ReferenceScheme = 'carlini' | 'paired';

export { isReferenceRole, type ReferenceRole } from '../schema/unit-role';

/** Index k of role `reference-k`. */
export const referenceIndexOf = (role: ReferenceRole): number => Number(role.slice('reference-'.length));

/** The reference units a run trains: `reference-0` … for `references.count`; none without it or with `references.import`. */
export function referenceRoles(config: Pick<ExperimentConfig, 'references'>): ReferenceRole[] {
  const count = config.references?.count;
  return count === undefined ? [] : Array.from({ length: count }, (_, k): ReferenceRole => `reference-${k}`);
}

/**
 * Which examples of a pool each of `count` reference models trains on (`keep[k][i] = 1`), seeded:
 *
 * - `carlini`: Carlini et al.'s `train.py` (`keep = uniform((N, n)).argsort(0) < N·pkeep`, pkeep ½):
 *   per example an independent uniformly random set of exactly N/2 models keeps it, so every example
 *   has N/2 IN and N/2 OUT references and each model trains on about half the pool (a different
 *   number per model).
 * - `paired`: ML Privacy Meter's `split_dataset_for_training` (docs/protocol.md §1.7): model 2j keeps
 *   a random half of the pool (⌊n/2⌋ examples) and model 2j + 1 the other half, so a prefix of an
 *   even number of models is itself balanced.
 *
 * Model k's mask depends on the seed, the scheme and (carlini) on `count`; for `paired` model k's
 * mask is the same for every `count` > k, so the first models of a larger run are the smaller run's.
 *
 * @param poolSize - n, the examples of the pool (docs/protocol.md §1.7: the audit examples).
 * @param count - N, an even number ≥ 2.
 * @returns N rows of n 0/1 entries.
 * @throws InvalidArgumentError when `count` is not an even integer ≥ 2 or `poolSize` not a positive integer.
 * @see docs/protocol.md §1.7, §3.8 (per-side reference counts).
 */
export function referenceKeep(poolSize: number, count: number, scheme: ReferenceScheme, seed: number): Uint8Array[] {
  if (!Number.isInteger(count) || count < 2 || count % 2 !== 0)
    throw new InvalidArgumentError(`referenceKeep: count must be an even integer ≥ 2, got ${count}`);
  if (!Number.isInteger(poolSize) || poolSize < 1) throw new InvalidArgumentError(`referenceKeep: poolSize must be a positive integer, got ${poolSize}`);
  // Every unit key of a run asks for the same masks: keep the last ones (callers get copies).
  const id = `${poolSize}:${count}:${scheme}:${seed}`;
  if (last?.id !== id) last = { id, keep: drawKeep(poolSize, count, scheme, seed) };
  return last.keep.map((row) => row.slice());
}

let last: { readonly id: string; readonly keep: readonly Uint8Array[] } | undefined;

function drawKeep(poolSize: number, count: number, scheme: ReferenceScheme, seed: number): Uint8Array[] {
  const keep = Array.from({ length: count }, () => new Uint8Array(poolSize));
  if (scheme === 'paired') {
    for (let j = 0; j < count / 2; j++) {
      const order = seededRandom(deriveSeed(seed, 'references', 'paired', j)).permutation(poolSize);
      order.forEach((i, r) => {
        keep[r < Math.floor(poolSize / 2) ? 2 * j : 2 * j + 1]![i] = 1;
      });
    }
    return keep;
  }
  if (scheme !== 'carlini') throw new InvalidArgumentError(`referenceKeep: scheme must be "carlini" or "paired", got ${JSON.stringify(scheme)}`);
  const random = seededRandom(deriveSeed(seed, 'references', 'carlini', count));
  for (let i = 0; i < poolSize; i++) {
    const order = random.permutation(count);
    for (let k = 0; k < count; k++) if (order[k]! < count / 2) keep[k]![i] = 1;
  }
  return keep;
}

/**
 * The examples the reference models are trained and scored on (docs/protocol.md §1.7): the pool,
 * the target's members then its non-members (the audit set every attack of the run is evaluated
 * on), and the population, the shadow side of the partition (`shadow_train` then `shadow_test`),
 * which neither the target nor any reference model trains on (RMIA's z, §3.9).
 * @throws Error when the partition lacks the target or shadow roles.
 */
export function referenceExamples(roles: Readonly<Record<string, readonly number[]>>): { readonly pool: number[]; readonly population: number[] } {
  const part = (name: string) => {
    const r = roles[name];
    if (r === undefined) throw new Error(`referenceExamples: the partition has no ${name} role`);
    return r;
  };
  return { pool: [...part('target_train'), ...part('target_test')], population: [...part('shadow_train'), ...part('shadow_test')] };
}

/**
 * A reference unit's members (the pool examples its keep row marks) and the examples it is scored
 * on besides them: the rest of the pool, then the population. The keep masks are seeded by the
 * config's `seed` (like the partition), so a run's seeds of training (`trainingSeed`) share them.
 * @throws InvalidArgumentError when the config trains no reference models or `role` is beyond its count.
 */
export function referenceIndices(
  config: Pick<ExperimentConfig, 'references' | 'seed'>,
  roles: Readonly<Record<string, readonly number[]>>,
  role: ReferenceRole,
): { readonly memberIdx: readonly number[]; readonly nonMemberIdx: readonly number[] } {
  const count = config.references?.count;
  const k = referenceIndexOf(role);
  if (count === undefined || k >= count)
    throw new InvalidArgumentError(`referenceIndices: ${role} is not a reference model of this config (references.count ${count ?? 'absent'})`);
  const { pool, population } = referenceExamples(roles);
  return keptExamples(pool, population, referenceKeep(pool.length, count, config.references?.scheme ?? 'carlini', config.seed)[k]!);
}

/** A reference model's members (the pool examples its keep `row` marks) and scored examples (the rest of the pool, then the population). */
export function keptExamples(
  pool: readonly number[],
  population: readonly number[],
  row: Uint8Array,
): { readonly memberIdx: readonly number[]; readonly nonMemberIdx: readonly number[] } {
  return { memberIdx: pool.filter((_, i) => row[i] === 1), nonMemberIdx: [...pool.filter((_, i) => row[i] === 0), ...population] };
}
