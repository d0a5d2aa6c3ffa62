import type * as tf from '@tensorflow/tfjs-core';
import type { Classifier, LabeledData, OptionIssue, OptionsSchema, Random, TrainingPlugin } from '@mia/core';
import type { TrainingConfig } from '../schema/run-schema';

/** What a defense gets to train one (target or shadow) model; `options` are its validated params with defaults. */
export interface DefenseTrainContext<O = Record<string, unknown>> {
  readonly model: Classifier;
  /** The model's training set (members). */
  readonly members: LabeledData;
  /** A disjoint non-member set (PAST's inference set, AdvReg's reference set), when the partition has one. */
  readonly inference?: LabeledData;
  readonly training: TrainingConfig;
  /** The defense's params, validated by its schema, with every default filled in. */
  readonly options: O;
  readonly seed: number;
  readonly label: string;
  readonly signal?: AbortSignal;
  /**
   * A fresh, untrained model of the run's architecture (SELENA's sub-models); each call gets the
   * next initialisation seed. The caller disposes it.
   */
  readonly createModel: () => Classifier;
  /**
   * Trains `model` in place with another defense of the same run, reusing that defense's cached
   * unit when the store has it and caching it otherwise (PAST's phase 1).
   */
  readonly trainBase: (base: { readonly name: string; readonly params: Readonly<Record<string, unknown>> }) => Promise<void>;
  /** Writes a line to the run's log (e.g. per-epoch training diagnostics). */
  readonly log?: (line: string) => void;
  /**
   * Records training metrics of this model (JSON values, e.g. CRL's relaxation counts); they are
   * stored with the cached unit and reported in the result row's `trainingMetrics`. Later calls
   * merge over earlier keys.
   */
  readonly recordMetrics?: (metrics: Readonly<Record<string, unknown>>) => void;
  /**
   * Observer plugins the runner adds to this model's training (the validation-curve monitor of a
   * target with a validation slice). `trainWithPlugins` appends them; a defense with its own loop
   * may pass them to `train` too. They must not change the model.
   */
  readonly monitors?: readonly TrainingPlugin[];
  /**
   * The run's training augmentation (`training.augment`) as `train`'s `augment` option, or undefined
   * without one. `trainWithPlugins` applies it; a defense with its own training loop passes it to
   * `train`, or refuses runs with `training.augment` in its `check`.
   */
  readonly augment?: (x: tf.Tensor, random: Random) => tf.Tensor;
}

/** The member and non-member logits of a trained unit, row-major `[n, C]`. */
export interface UnitLogits {
  readonly members: Float32Array;
  readonly nonMembers: Float32Array;
}

/**
 * The defenses a run knows, as a defense that builds on another one sees them (PAST's `base`): the
 * runner passes the registry in, so that no defense imports it.
 */
export interface DefenseLookup {
  /** The defense registered under `name`, or `undefined`. */
  find(name: string): DefenseDefinition<unknown> | undefined;
  /** Names of every registered defense (for messages that list them). */
  names(): string[];
}

/** What a defense's {@link DefenseDefinition.check} knows about the run before any data loads. */
export interface DefenseRunFacts {
  readonly training: TrainingConfig;
  /** The config's partition preset, e.g. `CCL4`. */
  readonly preset: string;
  /** Whether that preset has an inference (reference) set. */
  readonly hasInference: boolean;
  /** The run's defenses, for checking another defense's params (PAST's `base`). */
  readonly defenses: DefenseLookup;
  /** The run's model as the config names it (`model.name`, `model.options`), when the config's model is well-formed. */
  readonly model?: { readonly name: string; readonly options: Readonly<Record<string, unknown>> };
  /**
   * Examples the target trains on (its `target_train` role after `partition.maxPerRole` and the
   * validation slice), worked out from the config alone, when its dataset and partition are
   * well-formed: the N of DP's δ < 1/N.
   */
  readonly members?: number;
}

/**
 * A defense as the runner uses it: a name, the schema of its `params` (strict, with defaults), and
 * how it trains a model. Register your own with {@link registerDefense}.
 *
 * @example
 * registerDefense(defineDefense({
 *   name: 'my-loss', description: 'my loss', module: import.meta.url,
 *   schema: optionsSchema({ weight: option.number({ min: 0, default: 1 }) }),
 *   train: (ctx) => trainWithPlugins(ctx, [myPlugin(ctx.options)]),
 * }));
 */
export interface DefenseDefinition<O = Record<string, unknown>> {
  readonly name: string;
  /** Short description for reports. */
  readonly description: string;
  /** Validates `params` (unknown keys are errors) and fills the defaults; the config's JSON Schema comes from it. */
  readonly schema: OptionsSchema<O>;
  /** Whether the defense needs the partition's inference set (checked before anything loads). */
  readonly needsInference?: boolean;
  /**
   * The module that registers this defense when imported, e.g. `import.meta.url` of the file that
   * calls {@link registerDefense}: worker threads and queue workers import it. A user defense
   * without one runs only in the main thread (`workers: 0`).
   */
  readonly module?: string;
  /** Checks that need the run (e.g. `epochs` ≤ `training.epochs`); paths are relative to `params`. */
  check?(options: O, run: DefenseRunFacts): OptionIssue[];
  /**
   * Model options this defense sets, merged over the config's (dropout's rate). `defenses` are the
   * run's defenses, for a defense that builds on another one (PAST takes its `base`'s).
   */
  modelOptions?(options: O, defenses: DefenseLookup): Record<string, unknown>;
  /**
   * Trains `ctx.model` in place, or returns another trained model of the same architecture from
   * `ctx.createModel` to use instead (SELENA's distilled model); the runner then disposes both.
   */
  train(ctx: DefenseTrainContext<O>): Promise<void | Classifier>;
  /**
   * Post-hoc output perturbation (MemGuard): gets the trained model's logits on its members and
   * non-members and returns the logits released to the attacker. The cached model stays the
   * unperturbed one; label-only attacks query it.
   */
  perturbLogits?(ctx: DefenseTrainContext<O>, logits: UnitLogits): Promise<UnitLogits>;
}

/** Types a {@link DefenseDefinition} from its schema (`options` get the schema's type); returns it unchanged. */
export function defineDefense<O>(definition: DefenseDefinition<O>): DefenseDefinition<O> {
  return definition;
}
