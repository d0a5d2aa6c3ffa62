import { InvalidArgumentError, checkNonNegativeInteger, checkPositiveInteger, seededRandom } from '@mia/core';

/** One model's own split (a CRL shadow model, a LiRA/RMIA reference model): members and non-members. */
export interface ModelSplit {
  readonly train: readonly number[];
  readonly test: readonly number[];
}

/**
 * A seeded split of `0..n−1` into named roles (docs/protocol.md §1.8). Plain arrays, so
 * `JSON.parse(JSON.stringify(p))` is an equal partition that a run can store and reload
 * ({@link partitionFromJson} validates one).
 */
export interface Partition {
  /** Preset name, e.g. `'PAST6'`, `'CRL(5)'`, or `'custom'`. */
  readonly preset: string;
  /** Dataset size the partition was made for. */
  readonly n: number;
  readonly seed: number;
  /** Pairwise disjoint index arrays by role. */
  readonly roles: Readonly<Record<string, readonly number[]>>;
  /** Per-model member/non-member splits (CRL shadows, PAIRS models); each split is disjoint within itself. */
  readonly models?: readonly ModelSplit[];
}

/**
 * The library partition (docs/protocol.md §1.8): a seeded permutation of `0..n−1` (our sfc32 PRNG; torch
 * or numpy streams cannot be reproduced bit for bit, A34), cut into `k = roles.length` consecutive
 * slices of `⌊n/k⌋`, the remainder dropped, slice j named `roles[j]`.
 * @param n - dataset size.
 * @param k - number of slices; must equal `roles.length`.
 * @param seed - integer seed; the same seed gives the same split.
 * @param roles - distinct role names.
 * @throws InvalidArgumentError on a bad size, `k ≠ roles.length`, duplicate roles or `n < k`.
 */
export function partition(n: number, k: number, seed: number, roles: readonly string[], preset = 'custom'): Partition {
  checkPositiveInteger('partition', 'n', n);
  checkPositiveInteger('partition', 'k', k);
  checkNonNegativeInteger('partition', 'seed', seed);
  if (roles.length !== k) throw new InvalidArgumentError(`partition: roles must have k = ${k} names, got ${roles.length}`);
  if (new Set(roles).size !== k) throw new InvalidArgumentError(`partition: roles must be distinct, got ${JSON.stringify(roles)}`);
  if (n < k) throw new InvalidArgumentError(`partition: n must be at least k = ${k}, got ${n}`);
  const order = seededRandom(seed).permutation(n);
  const size = Math.floor(n / k);
  const out: Record<string, number[]> = {};
  roles.forEach((role, j) => {
    out[role] = Array.from(order.subarray(j * size, (j + 1) * size));
  });
  return { preset, n, seed, roles: out };
}

/**
 * Cuts `order` at cumulative fractions: `cuts = [0.1, 0.25]` gives `[0, ⌊0.1n⌋)`, `[⌊0.1n⌋, ⌊0.25n⌋)`
 * and the rest (SELENA's `r[:int(0.1·n)]`, `r[int(0.1·n):int(0.25·n)]` slicing).
 * @internal
 */
export function cutAtFractions(order: ArrayLike<number>, cuts: readonly number[]): number[][] {
  const n = order.length;
  const bounds = [0, ...cuts.map((c) => Math.floor(c * n + 1e-9)), n];
  const parts: number[][] = [];
  for (let i = 0; i + 1 < bounds.length; i++) parts.push(Array.from(order).slice(bounds[i], bounds[i + 1]));
  return parts;
}
