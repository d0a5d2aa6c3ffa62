import type { LabeledData, OptionIssue, OptionsSchema } from '@mia/core';
import type { LabelOracle, ModelSignals, ShadowAttack } from '@mia/attacks';
import type { ExperimentConfig, ReferencesConfig, TrainingConfig } from '../schema/run-schema';
import type { RunReferences } from '../references/reference-signals';

/** The query sets the runner can compute on every unit: the augmentation attacks' (docs/protocol.md §3.3). */
export type AttackQuerySet = 'rotation' | 'translation';

/**
 * What an attack needs from the run besides the target's signals. The runner provides what is listed
 * and refuses (when the config is checked, before anything trains) an attack that needs something it
 * cannot provide.
 */
export interface AttackNeeds {
  /**
   * Shadow models. `true`: `prepare` gets the pooled signals of the defense's `shadowModels` shadows
   * (same defense, docs/protocol.md §3.7) to calibrate on. `false`: the attack calibrates on nothing
   * the shadows give (the reference attacks `lira` and `rmia` fit on the reference models, §3.8,
   * §3.9); its `prepare` gets a stand-in whose `members` and `nonMembers` throw, naming the attack,
   * in every run. A run trains shadow models only when one of its attacks has `shadow: true`: a run
   * of `lira` and `rmia` alone trains the targets and the reference models.
   */
  readonly shadow: boolean;
  /**
   * Signals of the target and the shadows on augmented copies of each example (`ModelSignals.queries`):
   * `rotation` ([−r, 0, r] degrees) or `translation` (|i| + |j| = d), sized by the config's
   * `augmentation`. Image data only; needs `shadow: true` (the attack fits on the shadows' queries).
   */
  readonly queries?: AttackQuerySet;
  /**
   * Reference models (LiRA, RMIA): at least `min` models of the target's architecture trained on random
   * halves of the audit examples (the config's `references`), whose signals the attack fits per
   * example; `create` gets them as `ctx.references`. A config listing the attack without
   * `references`, or with fewer than `min`, is refused before anything trains.
   */
  readonly references?: { readonly min: number };
  /**
   * Population examples (RMIA's z samples): the target's signals on examples of the same distribution
   * that neither the target nor any reference model trains on (the shadow side of the partition,
   * docs/protocol.md §1.7), as `ctx.references.targetPopulation`. Needs `references`.
   */
  readonly population?: boolean;
  /**
   * The audited records themselves, besides the target's signals on them (QMIA's regressor reads the
   * records' features): `create` gets `ctx.records` ({@link AttackRecords}) with the dataset, the
   * indices of the audit examples and of the population (examples the target never trains on, the
   * shadow side of the partition, docs/protocol.md §1.7) and the target's signals on the population.
   * Needs no reference models. Refused, like `population`, with a defense that perturbs the target's
   * outputs while it trains (the runner cannot query that target on the population as an attacker would).
   */
  readonly records?: boolean;
  /**
   * Label-only query access to the run's trained models (the boundary-distance attack):
   * `ctx.records.labelOracle('target' | k)` gives a `LabelOracle` (predicted classes only) over the
   * target's or shadow k's cached model, and `ctx.records.shadows` the examples of each shadow. The
   * models are the ones the defense trained, without any output perturbation (a label-only attacker
   * sees the predicted class, which such perturbations keep). Gives `ctx.records` as `records` does.
   */
  readonly labelQueries?: boolean;
}

/**
 * The records an attack with `needs.records` or `needs.labelQueries` gets (`AttackCreateContext.records`).
 * Tensors from `dataset.gather` are the caller's to dispose.
 */
export interface AttackRecords {
  /** The run's dataset: `gather(indices)` gives the examples `[n, ...inputShape]` (float32), `y` the labels. */
  readonly dataset: LabeledData;
  /** Dataset indices of the audit examples: the target's members, then its non-members (the order `score` gets them in). */
  readonly audit: readonly number[];
  /** Dataset indices of the population: examples the target never trains on (the shadow side of the partition). */
  readonly population: readonly number[];
  /** Each shadow model's members and non-members, in the order `prepare`'s pooled signals concatenate them. */
  readonly shadows: ReadonlyArray<{ readonly memberIdx: readonly number[]; readonly nonMemberIdx: readonly number[] }>;
  /** The target's signals on the population, computed once with its cached model and cached in the store. */
  targetPopulation(): Promise<ModelSignals>;
  /**
   * Label-only access (`needs.labelQueries`) to the cached target (`'target'`) or shadow `k` (0-based,
   * as in `shadows`); the runner loads each model once and frees it after the attacks.
   */
  labelOracle(model: 'target' | number): Promise<LabelOracle>;
}

/** What {@link AttackDefinition.create} gets besides the attack's params. */
export interface AttackCreateContext {
  /** Name the attack's results are reported under (the entry's `label`, else the attack's name). */
  readonly label: string;
  /** Seed of the attack's randomness (attack-model initialisation, shuffling), from the run's training seed. */
  readonly seed: number;
  /** The run's scale: reduced scales may fit smaller or shorter (the built-in NN attacks train 5 epochs at `smoke`). */
  readonly scale: ExperimentConfig['scale'];
  /** The run's reference models, for an attack whose `needs.references` is set. */
  readonly references?: AttackReferences;
  /** The audited records, for an attack whose `needs.records` or `needs.labelQueries` is set. */
  readonly records?: AttackRecords;
}

/**
 * The reference models an attack gets (`AttackCreateContext.references`): their signals and keep
 * masks over the audit examples (the target's members then non-members, the order `score` gets them
 * in) followed by the population, and, for an attack that needs a population, the target's signals
 * on the population.
 */
export interface AttackReferences extends RunReferences {
  /** The target's signals on the population examples (`needs.population`). */
  readonly targetPopulation?: ModelSignals;
}

/** What an attack's {@link AttackDefinition.check} knows about the run before any data loads. */
export interface AttackRunFacts {
  readonly training: TrainingConfig;
  /** The config's partition preset, e.g. `CCL4`. */
  readonly preset: string;
  /** Shadow models per defense whose signals are pooled for `prepare` (trained only when an attack of the run has `needs.shadow`). */
  readonly shadowModels: number;
  /** The config's `references`, when it has them. */
  readonly references?: ReferencesConfig;
}

/**
 * An attack as the runner uses it: a name, the schema of its `params` (strict, with defaults), what it
 * needs from the run, and how it scores (`create` returns an `@mia/attacks` `ShadowAttack`: `prepare`
 * on the shadow signals, or on nothing with `needs.shadow: false`, `score` on the target's, higher =
 * more likely member). Register your own with {@link registerAttack}.
 *
 * @example
 * registerAttack(defineAttack({
 *   name: 'scaled-loss', description: 'loss × weight', module: import.meta.url,
 *   schema: optionsSchema({ weight: option.number({ min: 0, default: 1 }) }),
 *   needs: { shadow: true },
 *   create: (options, ctx) => metricAttack((s) => Float64Array.from(s.loss, (l) => -l * options.weight), { name: ctx.label }),
 * }));
 */
export interface AttackDefinition<O = Record<string, unknown>> {
  readonly name: string;
  /** Short description for reports and the config's JSON Schema. */
  readonly description: string;
  /** Validates `params` (unknown keys are errors) and fills the defaults; the config's JSON Schema comes from it. */
  readonly schema: OptionsSchema<O>;
  /** What the attack needs from the run (shadow models, queries, reference models, a population, the records, label queries). */
  readonly needs: AttackNeeds;
  /**
   * Whether the attack fits a model of its own (an attack network) that takes a while to train: its
   * outputs on the target are then cached, content-addressed by the attack, its params and its
   * inputs, so a rerun does not fit it again. Threshold attacks are cheap and are not cached.
   * @default false
   */
  readonly trained?: boolean;
  /**
   * The module that registers this attack when imported (usually `import.meta.url` of the file that
   * calls {@link registerAttack}); a config that lists it in `modules` loads it everywhere it runs.
   */
  readonly module?: string;
  /** Checks that need the run; paths are relative to `params`. */
  check?(options: O, run: AttackRunFacts): OptionIssue[];
  /** Builds the attack for one defense of a run; the runner calls `dispose` when it is done. */
  create(options: O, ctx: AttackCreateContext): ShadowAttack;
}

/** Types an {@link AttackDefinition} from its schema (`options` get the schema's type); returns it unchanged. */
export function defineAttack<O>(definition: AttackDefinition<O>): AttackDefinition<O> {
  return definition;
}
