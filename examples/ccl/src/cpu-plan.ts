/** One dataset's size at a reduced scale (data, cap per CCL4 role, model, run length). */
export interface ReducedSetup {
  readonly dataset: string;
  readonly size?: number;
  readonly maxPerRole: number;
  /** A validation slice cut from target_test before the cap (partition.validation, docs/protocol.md A11). */
  readonly validation?: number;
  readonly model: { readonly name: string; readonly options: Record<string, unknown> };
  readonly epochs: number;
  readonly batchSize: number;
  readonly lr: number;
}

/** The four datasets of CCL Table 1 that run here. */
export type PlanDataset = 'texas' | 'purchase' | 'cifar10' | 'cifar100';

/**
 * Every size of CCL's `--scale cpu`, in one place (docs/protocol.md §2.2 for the paper's values).
 *
 * `table1`: the regime CCL studies (an overfit, well-above-chance undefended model), sized for
 * ≤ 25 min cold for the whole of Table 1 on the native backend of a 2-core machine, with a
 * validation slice for the early-stopping control.
 *
 * The early-stopping control's epoch is not planned: Table 1 reads it off the undefended target's
 * per-epoch validation curve in a selection pass (the epoch closest to CCQL's final validation
 * accuracy; `matchedStopOf`, docs/protocol.md A11) and prints it in the report's notes.
 *
 * `figures`: Fig. 1, 2 and 4 (tens of settings in Fig. 2), kept small so each stays ≤ 60 min.
 */
export const CPU_PLAN: { readonly table1: Readonly<Record<PlanDataset, ReducedSetup>>; readonly figures: Readonly<Record<PlanDataset, ReducedSetup>> } = {
  table1: {
    texas: {
      dataset: 'texasLike',
      size: 16_000,
      maxPerRole: 3000,
      validation: 1000,
      model: { name: 'mlp', options: {} },
      epochs: 15,
      batchSize: 128,
      lr: 0.1,
    },
    purchase: {
      dataset: 'purchaseLike',
      size: 44_000,
      maxPerRole: 10_000,
      validation: 1000,
      model: { name: 'mlp', options: {} },
      epochs: 20,
      batchSize: 128,
      lr: 0.1,
    },
    cifar10: {
      dataset: 'cifar10',
      maxPerRole: 2500,
      validation: 1000,
      model: { name: 'small-cnn', options: {} },
      epochs: 40,
      batchSize: 64,
      lr: 0.05,
    },
    cifar100: {
      dataset: 'cifar100',
      maxPerRole: 2500,
      validation: 1000,
      model: { name: 'small-cnn', options: {} },
      epochs: 40,
      batchSize: 64,
      lr: 0.05,
    },
  },
  // Sized from step times measured on wasm at load ≈ 5 (small-cnn ≈ 6.4 s per 128-batch step,
  // Purchase [256, 128] ≈ 0.03 s, Texas [256, 128] ≈ 0.16 s) for a machine shared with other jobs.
  figures: {
    texas: { dataset: 'texasLike', size: 5000, maxPerRole: 1000, model: { name: 'mlp', options: { hidden: [256, 128] } }, epochs: 20, batchSize: 128, lr: 0.1 },
    purchase: {
      dataset: 'purchaseLike',
      size: 5000,
      maxPerRole: 1200,
      model: { name: 'mlp', options: { hidden: [256, 128] } },
      epochs: 20,
      batchSize: 128,
      lr: 0.1,
    },
    // Fig. 1 (member-loss dynamics of CE, FL and CCQL: three models): Table 1's CIFAR setup, so the
    // curves are those of models in the overfit regime (300 images × 6 epochs stayed at chance).
    cifar10: { dataset: 'cifar10', maxPerRole: 2500, model: { name: 'small-cnn', options: {} }, epochs: 40, batchSize: 64, lr: 0.05 },
    cifar100: { dataset: 'cifar100', maxPerRole: 2500, model: { name: 'small-cnn', options: {} }, epochs: 40, batchSize: 64, lr: 0.05 },
  },
};
