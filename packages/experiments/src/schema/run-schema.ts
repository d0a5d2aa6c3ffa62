import { z } from 'zod';

/** Training hyperparameters of every model of a run (docs/protocol.md §2). */
export const trainingSchema = z.strictObject({
  epochs: z.number().int().positive(),
  batchSize: z.number().int().positive(),
  optimizer: z.enum(['sgd', 'adam']).default('sgd'),
  lr: z.number().positive(),
  momentum: z.number().min(0).max(1).default(0.9),
  nesterov: z.boolean().default(false),
  weightDecay: z.number().min(0).default(5e-4),
  schedule: z
    .discriminatedUnion('type', [
      z.strictObject({ type: z.literal('constant') }),
      z.strictObject({ type: z.literal('cosine') }),
      z.strictObject({ type: z.literal('multistep'), milestones: z.array(z.number().int().positive()), gamma: z.number().positive().default(0.1) }),
      // Absolute LR per epoch range [start, end), the last matching range winning (the CRL configs, docs/protocol.md §2.6).
      z.strictObject({
        type: z.literal('piecewise'),
        ranges: z.array(z.strictObject({ start: z.number().int().nonnegative(), end: z.number().int().positive(), lr: z.number().positive() })).min(1),
      }),
    ])
    .default({ type: 'constant' }),
  microBatchSize: z.number().int().positive().optional(),
  /**
   * Training-time augmentation of image batches (docs/protocol.md §1.1): a random crop from the image
   * zero-padded by `crop` pixels and a random horizontal flip, drawn per image from the unit's seed.
   * Only training batches are augmented; the attacks query the un-augmented members. Absent: none
   * (and the cache keys of configs without it are unchanged).
   */
  augment: z
    .strictObject({
      crop: z.number().int().min(0).max(16).default(4),
      flip: z.boolean().default(true),
    })
    .optional(),
  /**
   * Which weights a target model keeps (docs/protocol.md A11): `last`, the final epoch's, or
   * `best-validation`, the epoch with the highest accuracy on the partition's validation slice (the
   * earliest on ties; needs `partition.validation`). Shadow models have no validation slice and keep
   * their last epoch. Absent: `last` (and the cache keys of configs without it are unchanged).
   */
  checkpoint: z.union([z.literal('last'), z.literal('best-validation')]).optional(),
});

/** One defense of a run; `params` are checked against the defense's own schema (see `experimentIssues`). */
export const defenseSchema = z.strictObject({
  name: z.string().min(1),
  label: z.string().optional(),
  params: z.record(z.string(), z.unknown()).default({}),
  /** A sweep: every combination of these parameter values becomes one defense (`mia sweep`). */
  grid: z.record(z.string(), z.array(z.unknown()).min(1)).optional(),
  /**
   * How this defense's params were chosen, when a search over several trainings chose them: the
   * audit doctor holds a differentially private row's ε against it (`dp-search-unaccounted`: an ε
   * of one training reported for the best of several chosen on private data). Not part of any cache key.
   */
  search: z
    .strictObject({
      /** Settings trained and compared (≥ 1). */
      candidates: z.number().int().min(1),
      /** Whether the candidates were trained or compared on private data (the training set, or a validation slice cut from it). */
      onPrivateData: z.boolean(),
      /** Whether the reported ε accounts for the search (e.g. Papernot & Steinke 2022's random-stopping bound). @default false */
      accounted: z.boolean().default(false),
      /**
       * The ε of the whole search at the row's δ (e.g. `searchEpsilonOf` of `@mia/defense-dp`: every
       * candidate's training composed). Reported beside the row's own ε, and the one the audit
       * doctor holds the row to; giving it means `accounted`.
       */
      epsilon: z.number().min(0).optional(),
    })
    .optional(),
});

/** How a defense's params were chosen (`search` of a defense). */
export type DefenseSearch = NonNullable<z.infer<typeof defenseSchema>['search']>;

/**
 * One attack of a run as written: its name (`"loss"`, the attack with its default params), or
 * `{ name, label?, params }`; `params` are checked against the attack's own schema (see
 * `experimentIssues`), and `label` names its results (default: the name).
 */
export const attackEntrySchema = z.union(
  [
    z.string().min(1),
    z.strictObject({
      name: z.string().min(1),
      label: z.string().min(1).optional(),
      params: z.record(z.string(), z.unknown()).default({}),
    }),
  ],
  { error: 'an attack name (e.g. "loss") or { name, label?, params }' },
);

/**
 * The reference models of a run (LiRA, RMIA; docs/protocol.md §1.7, §3.8, §3.9): either `count`
 * models of the target's architecture and training, trained without the defense on random halves of
 * the target's members and non-members (`scheme`: `carlini`, every example in exactly half the
 * models as in Carlini et al.'s `train.py`; `paired`, pairs of models on complementary halves as in
 * ML Privacy Meter), or models trained elsewhere, imported from a directory in Carlini et al.'s
 * layout (`import`: one `keep.npy` and `logits.npy` per model). Exactly one of `count` and `import`;
 * the check of the whole config says so with the path.
 */
export const referencesSchema = z.strictObject({
  /** Number of reference models to train: an even number (half of them keep each example), 2–256. */
  count: z.number().int().min(2).max(256).optional(),
  /** How the models' training sets are drawn. @default 'carlini' */
  scheme: z.union([z.literal('carlini'), z.literal('paired')]).optional(),
  /** A directory of models trained elsewhere, one sub-directory per model with `keep.npy` and `logits.npy` (`mia references export` writes one). */
  import: z.string().min(1).optional(),
});

/** A run = dataset, partition, model, defenses, attacks, seed and scale (packages/experiments/README.md). */
export const experimentSchema = z.strictObject({
  name: z.string().regex(/^[a-zA-Z0-9._-]+$/, 'letters, digits, ".", "_" or "-"'),
  description: z.string().default(''),
  scale: z.enum(['smoke', 'cpu', 'paper']).default('cpu'),
  /** Seed of the partition, the evaluation resamples and (without `trainingSeed`) of the training. */
  seed: z.number().int().nonnegative().default(0),
  /**
   * Seed of the training alone: every model's initialisation, batch order and defense randomness, and
   * the attack models; the partition (so the evaluation examples) stays `seed`'s. `runSeeds` of
   * `@mia/experiments/reproduce` varies it (docs/protocol.md §5.2). Absent, `seed` drives the
   * training as before (cache keys and results unchanged). @default `seed`
   */
  trainingSeed: z.number().int().nonnegative().optional(),
  dataset: z.strictObject({
    name: z.string().min(1),
    /** Number of examples for synthetic stand-ins (ignored for real data). */
    size: z.number().int().positive().optional(),
    dataDir: z.string().optional(),
  }),
  partition: z.strictObject({
    preset: z.enum(['CCL4', 'CCL5', 'PAST6', 'RELAX5']).default('CCL4'),
    /** Cap on the examples of each role (reduced scales). */
    maxPerRole: z.number().int().positive().optional(),
    /**
     * A validation slice of this many examples, cut from the end of the preset's non-member pool
     * (PAST6 target_inference, CCL4 target_test, CCL5 inference, RELAX5 pseudo_test) before the cap,
     * disjoint from every other role; only the target's accuracy on it is measured, never attacked
     * (hyperparameter selection, docs/protocol.md A11).
     */
    validation: z.number().int().positive().optional(),
  }),
  model: z.strictObject({ name: z.string().min(1), options: z.record(z.string(), z.unknown()).default({}) }),
  training: trainingSchema,
  defenses: z.array(defenseSchema).min(1),
  /**
   * Runner attacks, each a name or `{ name, label?, params }` (`attackEntrySchema`); `[]` trains the
   * targets only (no shadow models), for reproductions that attack the targets themselves. Attacks
   * that calibrate on no shadow model (`lira`, `rmia`: `needs.shadow` false) do not make the run
   * train any either.
   */
  attacks: z.array(attackEntrySchema).default(['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy', 'nn-mlh']),
  /**
   * Shadow models per defense whose signals are pooled to calibrate the attacks (the CRL paper's
   * NN attack pools k = 5, docs/protocol.md §3.2), trained when an attack of the run calibrates on
   * them (`needs.shadow`): the first trains on `shadow_train` against
   * `shadow_test`; each further one on a seeded random half of `shadow_train ∪ shadow_test` against
   * the other half. @default 1
   */
  shadowModels: z.number().int().min(1).max(64).default(1),
  /**
   * Which seed trains the shadow models (docs/protocol.md §5.2): `training`, the run's training seed,
   * so each training seed of a `runSeeds` group trains its own shadows; `partition`, the run's
   * `seed`, so the runs of one group share their shadows (trained once and cached, the targets alone
   * vary with the training seed), as a paper's pooled shadows serve all its target runs. Reference
   * models keep the training seed. Absent: `training` (cache keys unchanged).
   */
  shadowSeed: z.union([z.literal('training'), z.literal('partition')]).optional(),
  /**
   * Reference models for the attacks that need them (`lira`, `rmia`): `{ count, scheme? }` trains
   * them as cached units of the run, or `{ import: dir }` reads them (`referencesSchema`). Absent:
   * none, and a config listing such an attack is refused before anything trains.
   */
  references: referencesSchema.optional(),
  /** Queries of the augmentation attacks `rotation` ([−r, 0, r] degrees) and `translation` (|i| + |j| = d), docs/protocol.md §3.3. */
  augmentation: z
    .strictObject({ rotationDegrees: z.number().positive().default(4), translationDistance: z.number().int().positive().default(1) })
    .default({ rotationDegrees: 4, translationDistance: 1 }),
  /**
   * Modules that register user defenses (`registerDefense`) and attacks (`registerAttack`), imported before the config is checked
   * and by every worker thread and queue worker: package names, `file:` URLs, or paths (relative
   * to the config file in `loadExperimentConfig`).
   */
  modules: z.array(z.string().min(1)).default([]),
  /** Independent trainings run in parallel worker threads (0 = in this thread). @default 0 */
  workers: z.number().int().nonnegative().default(0),
  /** The paper's numbers to print beside ours: `paper[defenseLabel][column] = value`. */
  paper: z.strictObject({ source: z.string(), values: z.record(z.string(), z.record(z.string(), z.number())) }).optional(),
});

export type ExperimentConfig = z.infer<typeof experimentSchema>;

/** The seed a run trains its models (and attack models) with: `trainingSeed`, else `seed`. */
export const trainingSeedOf = (config: Pick<ExperimentConfig, 'seed' | 'trainingSeed'>): number => config.trainingSeed ?? config.seed;
export type TrainingConfig = z.infer<typeof trainingSchema>;
/** The `references` entry of a config. */
export type ReferencesConfig = z.infer<typeof referencesSchema>;
export type DefenseConfig = z.infer<typeof defenseSchema>;
/** One entry of `attacks` as the config holds it: a name, or `{ name, label?, params }`. */
export type AttackEntry = z.infer<typeof attackEntrySchema>;

/** An attack entry with its parts spelled out: a bare name has no label and empty params. */
export interface AttackConfig {
  readonly name: string;
  /** The name of its results: `label`, else the name. */
  readonly label: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** The name, result label and params of an attack entry (a bare name: itself, itself, `{}`). */
export function attackConfigOf(entry: AttackEntry): AttackConfig {
  return typeof entry === 'string' ? { name: entry, label: entry, params: {} } : { name: entry.name, label: entry.label ?? entry.name, params: entry.params };
}

/**
 * Expands every defense `grid` into one defense per combination of values (in the order given),
 * labelled `label k=v …`; defenses without a grid are kept as they are.
 */
export function expandGrid(config: ExperimentConfig): ExperimentConfig {
  const defenses = config.defenses.flatMap((d) => {
    if (d.grid === undefined) return [d];
    let combos: Array<Record<string, unknown>> = [{}];
    for (const [key, values] of Object.entries(d.grid)) combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
    return combos.map((c) => ({
      name: d.name,
      label: `${d.label ?? d.name} ${Object.entries(c)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(' ')}`,
      params: { ...d.params, ...c },
      ...(d.search === undefined ? {} : { search: d.search }),
    }));
  });
  return { ...config, defenses };
}
