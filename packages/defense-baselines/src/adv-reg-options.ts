import { check, checkNonNegativeInteger, checkPositiveInteger, type LrSchedule, type Optimizer } from '@mia/core';
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
  /** @default mlhospital `sgd(0.01, 0.9, wd 5e-4)` stepped with `schedule`; sel `adam(1e-4)` */
  readonly attackOptimizer?: Optimizer;
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
  readonly seed: number;
}

/** Validates {@link AdvRegOptions} and applies the variant defaults. @internal */
export function resolveAdvRegOptions(fn: string, options: AdvRegOptions): ResolvedAdvReg {
  checkPositiveInteger(fn, 'epochs', options.epochs);
  const sel = options.variant === 'sel';
  check(options.variant === undefined || options.variant === 'mlhospital' || sel, fn, 'variant', "'mlhospital' or 'sel'", options.variant);
  const batchSize = options.batchSize ?? 128;
  checkPositiveInteger(fn, 'batchSize', batchSize);
  const warmupEpochs = options.warmupEpochs ?? (sel ? 1 : 4);
  const warmupAttackEpochs = options.warmupAttackEpochs ?? (sel ? 5 : 0);
  checkNonNegativeInteger(fn, 'warmupEpochs', warmupEpochs);
  checkNonNegativeInteger(fn, 'warmupAttackEpochs', warmupAttackEpochs);
  const rounds = options.rounds ?? (sel ? { attackBatches: Math.max(1, Math.round((13 * 512) / batchSize)), targetBatches: 2 } : undefined);
  if (rounds !== undefined) {
    checkPositiveInteger(fn, 'rounds.attackBatches', rounds.attackBatches);
    checkPositiveInteger(fn, 'rounds.targetBatches', rounds.targetBatches);
  }
  return {
    sel,
    batchSize,
    alpha: options.alpha ?? 1,
    warmupEpochs,
    warmupAttackEpochs,
    warmupPlain: (options.warmupObjective ?? (sel ? 'plain' : 'private')) === 'plain',
    rounds,
    features: { outputs: options.outputs ?? 'logits', labelCode: options.labelCode ?? (sel ? 'oneHot' : 'plusMinusOne') },
    lossKind: options.attackLoss ?? (sel ? 'mse' : 'bce'),
    seed: options.seed ?? 0,
  };
}
