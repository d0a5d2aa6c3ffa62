import { option, optionsSchema, type LrSchedule, type Optimizer } from '@mia/core';
import type { AttackFeatures } from './adv-reg-plugin';
import type { TwoBranchAttackModel } from './attack-model';

/** Options of {@link trainAdvReg}; `variant` picks the defaults of each field. */
export interface AdvRegOptions extends AttackFeatures {
  readonly epochs: number;
  /** `'mlhospital'` (PASTr/CCL `AdvReg.py`) or `'sel'` (SEL Purchase/Texas). @default 'mlhospital' */
  readonly variant?: 'mlhospital' | 'sel';
  /** Privacy weight α. @default 1 */
  readonly alpha?: number;
  /** @default 128 */
  readonly batchSize?: number;
  /** Target optimizer. @default mlhospital `sgd(0.01, momentum 0.9, wd 5e-4)`; sel `adam(1e-3)` (disposed when created here) */
  readonly optimizer?: Optimizer;
  /** Target LR schedule. @default mlhospital cosine(epochs); sel constant */
  readonly schedule?: LrSchedule;
  /** Attack model (kept; the caller disposes it). @default `mlhAdvRegAttackModel` / `selAttackModel`, disposed at the end */
  readonly attackModel?: TwoBranchAttackModel;
  /** Attack optimizer object (kept; the caller disposes it); overrides `attackOptimizerKind` and `attackLr`. @default built from those */
  readonly attackOptimizer?: Optimizer;
  /**
   * Kind of the attack optimizer built here: `'sgd'` (momentum 0.9, wd 5e-4; stepped with `schedule`
   * in the mlhospital variant) or `'adam'`. @default mlhospital 'sgd'; sel 'adam'
   */
  readonly attackOptimizerKind?: 'sgd' | 'adam';
  /** Base LR of the attack optimizer built here. @default mlhospital 0.01; sel 1e-4 */
  readonly attackLr?: number;
  /** Attack loss. @default mlhospital 'bce'; sel 'mse' */
  readonly attackLoss?: 'bce' | 'mse';
  /** Epochs before the adversarial game starts. @default mlhospital 4; sel 1 */
  readonly warmupEpochs?: number;
  /** Warm-up objective: the private objective with the untrained attack (MLHospital) or plain CE (SEL). */
  readonly warmupObjective?: 'private' | 'plain';
  /** Attack epochs at the end of the warm-up. @default mlhospital 0; sel 5 */
  readonly warmupAttackEpochs?: number;
  /**
   * Interleaving after the warm-up. `undefined` = per epoch one full attack pass, then one full
   * private pass (MLHospital). Otherwise rounds of `attackBatches` attack steps then `targetBatches`
   * target batches until the epoch's member batches are used (SEL: 13·512/B and 2).
   */
  readonly rounds?: { readonly attackBatches: number; readonly targetBatches: number };
  /** @default 0 */
  readonly seed?: number;
}

/** {@link AdvRegOptions} with the variant's defaults filled in (optimizers and the attack model excepted). @internal */
export interface ResolvedAdvReg {
  readonly sel: boolean;
  readonly batchSize: number;
  readonly alpha: number;
  readonly warmupEpochs: number;
  readonly warmupAttackEpochs: number;
  readonly warmupPlain: boolean;
  readonly rounds: { readonly attackBatches: number; readonly targetBatches: number } | undefined;
  readonly features: AttackFeatures;
  readonly lossKind: 'bce' | 'mse';
  readonly attackOptimizerKind: 'sgd' | 'adam';
  readonly attackLr: number;
  readonly seed: number;
}

/**
 * The schema of the scalar {@link AdvRegOptions} (validation, JSON Schema; unknown keys are errors).
 * Options without a default here take the `variant`'s (see {@link AdvRegOptions}); the optimizers,
 * schedule and attack model are code-only.
 * @see docs/protocol.md §4.7
 */
export const advRegOptionsSchema = optionsSchema({
  epochs: option.integer({ min: 1, required: true, description: 'Training epochs.' }),
  variant: option.choice(['mlhospital', 'sel'], {
    default: 'mlhospital',
    description: "MLHospital's schedule (PASTr/CCL AdvReg.py) or SEL's (Purchase/Texas).",
  }),
  alpha: option.number({ min: 0, default: 1, description: 'Privacy weight α.' }),
  batchSize: option.integer({ min: 1, default: 128, description: 'Batch size.' }),
  attackLoss: option.choice(['bce', 'mse'], { description: "Attack loss (mlhospital 'bce', sel 'mse')." }),
  warmupEpochs: option.integer({ min: 0, description: 'Epochs before the adversarial game starts (mlhospital 4, sel 1).' }),
  warmupObjective: option.choice(['private', 'plain'], { description: "Warm-up objective (mlhospital 'private', sel 'plain')." }),
  warmupAttackEpochs: option.integer({ min: 0, description: 'Attack epochs at the end of the warm-up (mlhospital 0, sel 5).' }),
  rounds: option.group(
    { attackBatches: option.integer({ min: 1, required: true }), targetBatches: option.integer({ min: 1, required: true }) },
    { description: 'Interleaving after the warm-up: attack steps then target batches per round.' },
  ),
  outputs: option.choice(['logits', 'posterior'], { default: 'logits', description: "The attack model's view of the target: logits or softmax." }),
  labelCode: option.choice(['plusMinusOne', 'oneHot'], { description: "Label coding of the attack model (mlhospital 'plusMinusOne', sel 'oneHot')." }),
  attackOptimizerKind: option.choice(['sgd', 'adam'], {
    description: "Attack model optimizer (mlhospital 'sgd' with momentum 0.9 and wd 5e-4, sel 'adam'); see docs/protocol/4-defenses.md §4.7 on short runs.",
  }),
  attackLr: option.number({ min: 0, exclusiveMin: true, description: 'Base LR of the attack model optimizer (mlhospital 0.01, sel 1e-4).' }),
  seed: option.number({ default: 0, description: 'Seed of batches and initialisation.' }),
});

/** Validates {@link AdvRegOptions} with {@link advRegOptionsSchema} and applies the variant defaults. @internal */
export function resolveAdvRegOptions(fn: string, options: AdvRegOptions): ResolvedAdvReg {
  const o = advRegOptionsSchema.parse(options, fn, { allowUnknown: true });
  const sel = o.variant === 'sel';
  const batchSize = o.batchSize;
  const warmupEpochs = o.warmupEpochs ?? (sel ? 1 : 4);
  const warmupAttackEpochs = o.warmupAttackEpochs ?? (sel ? 5 : 0);
  const rounds = o.rounds ?? (sel ? { attackBatches: Math.max(1, Math.round((13 * 512) / batchSize)), targetBatches: 2 } : undefined);
  return {
    sel,
    batchSize,
    alpha: o.alpha,
    warmupEpochs,
    warmupAttackEpochs,
    warmupPlain: (o.warmupObjective ?? (sel ? 'plain' : 'private')) === 'plain',
    rounds,
    features: { outputs: o.outputs, labelCode: o.labelCode ?? (sel ? 'oneHot' : 'plusMinusOne') },
    lossKind: o.attackLoss ?? (sel ? 'mse' : 'bce'),
    attackOptimizerKind: o.attackOptimizerKind ?? (sel ? 'adam' : 'sgd'),
    attackLr: o.attackLr ?? (sel ? 1e-4 : 0.01),
    seed: o.seed,
  };
}
