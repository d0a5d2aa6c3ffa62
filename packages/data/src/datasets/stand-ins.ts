import type { TabularDataset } from './dataset';
import { binaryStandIn, type BinaryStandInOptions } from './binary-stand-in';

/** Options of {@link purchaseLike} and {@link texasLike}. */
export interface StandInOptions {
  /** Records; defaults to the size of the real dataset (Purchase100 197 324, Texas100 67 330). Use small sizes in tests. */
  readonly size?: number;
  /** Seed of the records. @default 0 */
  readonly seed?: number;
  /** Override generator parameters (for tuning studies). */
  readonly overrides?: Partial<Omit<BinaryStandInOptions, 'name' | 'size' | 'seed'>>;
}

/**
 * Tuned generator parameters. With them the Purchase MLP (600-1024-512-256-128-100, tanh,
 * SGD lr 0.1, momentum 0.9, batch 128) trained on 10 000 purchaseLike records reaches 100 % train
 * and 65.5 % test accuracy after 12 epochs (`scripts/tune-stand-ins.ts`, 2026-11-22), like an
 * undefended model on the real data. texasLike is set to a slightly harder naive-Bayes level
 * (0.93 vs 0.97, `scripts/naive-bayes-proxy.ts`), as Texas100 is harder than Purchase100; its MLP
 * run was not affordable on the 2-core machine.
 */
export const STAND_IN_PARAMETERS = {
  purchaseLike: { numFeatures: 600, density: 0.25, keep: 0.22, groups: 20, classMutation: 0.5, taskSeed: 600 },
  texasLike: { numFeatures: 6169, density: 0.05, keep: 0.11, groups: 20, classMutation: 0.5, taskSeed: 6169 },
} as const;

/**
 * A synthetic stand-in for Purchase100 (600 binary features, 100 classes, prototype + noise),
 * for machines without the Shokri et al. files. `source` is `'stand-in'`.
 * @see docs/protocol.md §1.1; packages/data/README.md
 */
export function purchaseLike(options: StandInOptions = {}): TabularDataset {
  return binaryStandIn({
    ...STAND_IN_PARAMETERS.purchaseLike,
    ...options.overrides,
    name: 'purchaseLike',
    size: options.size ?? 197_324,
    seed: options.seed ?? 0,
  });
}

/**
 * A synthetic stand-in for Texas100 (6169 binary features, 100 classes, sparse prototype + noise).
 * `source` is `'stand-in'`.
 * @see docs/protocol.md §1.1; packages/data/README.md
 */
export function texasLike(options: StandInOptions = {}): TabularDataset {
  return binaryStandIn({
    ...STAND_IN_PARAMETERS.texasLike,
    ...options.overrides,
    name: 'texasLike',
    size: options.size ?? 67_330,
    seed: options.seed ?? 0,
  });
}
