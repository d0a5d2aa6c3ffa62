import { InvalidArgumentError } from '@mia/core';
import type { Partition } from '@mia/data';

/**
 * The role each partition preset cuts its validation slice from: its non-member pool (docs/protocol.md
 * A11: "a validation slice of the non-member pool that no attack touches").
 */
export const VALIDATION_POOL: Readonly<Record<string, string>> = {
  PAST6: 'target_inference',
  CCL4: 'target_test',
  CCL5: 'inference',
  RELAX5: 'pseudo_test',
};

/**
 * Applies the reduced-scale cap and cuts a validation slice (docs/protocol.md A11): the last
 * `validation` indices of the preset's pool role ({@link VALIDATION_POOL}) become the role
 * `validation`, and the pool keeps at most `len − validation` (then the cap) of its first indices, so
 * the slice is disjoint from every other role. Without `validation` only the cap applies.
 * @throws InvalidArgumentError when the preset has no pool or the pool is too small for the slice.
 */
export function capAndValidation(full: Partition, cap: number | undefined, validation: number | undefined): Partition {
  const roles: Record<string, readonly number[]> = {};
  const pool = validation === undefined ? undefined : VALIDATION_POOL[full.preset];
  if (validation !== undefined) {
    if (pool === undefined || full.roles[pool] === undefined) {
      throw new InvalidArgumentError(
        `partition.validation: expected a preset with a non-member pool (${Object.keys(VALIDATION_POOL).join(', ')}), got ${JSON.stringify(full.preset)}`,
      );
    }
    const length = full.roles[pool]!.length;
    if (validation >= length) {
      throw new InvalidArgumentError(`partition.validation: expected fewer than the ${length} examples of ${full.preset}'s ${pool} role, got ${validation}`);
    }
  }
  for (const [role, idx] of Object.entries(full.roles)) {
    const kept = role === pool ? idx.slice(0, idx.length - validation!) : idx;
    roles[role] = cap === undefined ? kept : kept.slice(0, cap);
  }
  if (pool !== undefined) {
    const idx = full.roles[pool]!;
    roles.validation = idx.slice(idx.length - validation!);
  }
  return { ...full, roles };
}
