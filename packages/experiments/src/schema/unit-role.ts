/** A reference model's unit role: `reference-0` … `reference-(count − 1)`. */
export type ReferenceRole = `reference-${number}`;

/**
 * Which model of a run: the target, the first shadow, a further pooled shadow (`shadow-2` …), or a
 * reference model (`reference-0` …, trained once per run without the defense).
 */
export type UnitRole = 'target' | 'shadow' | `shadow-${number}` | ReferenceRole;

/** Whether a unit role names a reference model. */
export const isReferenceRole = (role: string): role is ReferenceRole => /^reference-\d+$/.test(role);

/** The partition role a unit's data comes from: `shadow-k` re-splits the shadow roles; a reference model the target's. */
export const dataRole = (role: UnitRole): 'target' | 'shadow' => (role === 'target' || isReferenceRole(role) ? 'target' : 'shadow');
