import type * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkNumberInRange } from '@mia/core';
import { concaveTerm, exponentialConcave, quadraticConcave, type ConcaveTerm } from './concave-term';

/** Options of every CCL entry point ({@link convexConcaveLoss}, {@link cclLoss}, {@link cclPlugin}). */
export interface CclOptions {
  /** Weight α ∈ [0, 1] of the convex term; `1 − α` weights the concave term. @default 0.5 (CCL Table 1) */
  readonly alpha?: number;
  /**
   * The concave term: `'exponential'` (CCEL, `−exp(p_y)`), `'quadratic'` (CCQL, `−p_y − p_y²/2`),
   * a validated {@link ConcaveTerm}, or a plain function `p ↦ f(p)` (validated with {@link concaveTerm}).
   * @default 'exponential'
   */
  readonly concave?: 'exponential' | 'quadratic' | ConcaveTerm | ((p: tf.Tensor) => tf.Tensor);
  /**
   * Scale factor β on the whole averaged loss (docs/protocol.md §4.2, A17): 0.01 on CIFAR-10,
   * 0.05 on CIFAR-100, 1 otherwise. @default 1
   */
  readonly scale?: number;
  /** Convex base loss: cross-entropy or focal loss `(1 − p_y)^γ·CE` (CCL App. D). @default 'ce' */
  readonly base?: 'ce' | 'focal';
  /** Focal exponent γ (only with `base: 'focal'`). @default 2 */
  readonly gamma?: number;
  /**
   * Sign of the concave term in the focal variant. `'paper'`: `α·FL + (1−α)·f(p_y)` (App. D, f ∈ 𝓕).
   * `'code'`: `α·FL − (1−α)·f(p_y)`, i.e. `+exp(p_y)` as in the authors' `FocalCCEL`
   * (docs/protocol.md §4.2), for bit-compatible reproduction of CCL Fig. 6. @default 'paper'
   */
  readonly focalConcaveSign?: 'paper' | 'code';
  /** `true`: predictions are logits; `false`: probabilities (a model ending in softmax). @default true */
  readonly fromLogits?: boolean;
}

/** {@link CclOptions} with every default filled in and the concave term resolved. @internal */
export interface ResolvedCclOptions {
  readonly alpha: number;
  readonly concave: ConcaveTerm;
  readonly scale: number;
  readonly base: 'ce' | 'focal';
  readonly gamma: number;
  /** +1 or −1: the factor of `(1 − α)·f(p_y)`. */
  readonly concaveSign: 1 | -1;
  readonly fromLogits: boolean;
}

/**
 * Validates {@link CclOptions} and fills in defaults.
 * @param fn - name of the calling function, for error messages.
 * @throws InvalidArgumentError on an out-of-range α, β or γ, an unknown name, or a custom term outside 𝓕.
 * @internal
 */
export function resolveCclOptions(fn: string, options: CclOptions = {}): ResolvedCclOptions {
  const alpha = options.alpha ?? 0.5;
  checkNumberInRange(fn, 'alpha', alpha, 0, 1);
  const scale = options.scale ?? 1;
  checkNumberInRange(fn, 'scale', scale, 0);
  if (scale === 0) throw new InvalidArgumentError(`${fn}: scale must be a positive number, got 0`);
  const gamma = options.gamma ?? 2;
  checkNumberInRange(fn, 'gamma', gamma, 0);
  const base = options.base ?? 'ce';
  if (base !== 'ce' && base !== 'focal') throw new InvalidArgumentError(`${fn}: base must be 'ce' or 'focal', got ${JSON.stringify(base)}`);
  const sign = options.focalConcaveSign ?? 'paper';
  if (sign !== 'paper' && sign !== 'code') throw new InvalidArgumentError(`${fn}: focalConcaveSign must be 'paper' or 'code', got ${JSON.stringify(sign)}`);
  const fromLogits = options.fromLogits ?? true;
  if (typeof fromLogits !== 'boolean') throw new InvalidArgumentError(`${fn}: fromLogits must be a boolean, got ${JSON.stringify(fromLogits)}`);
  return { alpha, concave: resolveConcave(fn, options.concave), scale, base, gamma, concaveSign: base === 'focal' && sign === 'code' ? -1 : 1, fromLogits };
}

function resolveConcave(fn: string, concave: CclOptions['concave']): ConcaveTerm {
  if (concave === undefined || concave === 'exponential') return exponentialConcave;
  if (concave === 'quadratic') return quadraticConcave;
  if (typeof concave === 'function') return concaveTerm(concave);
  if (typeof concave === 'object' && concave !== null && typeof concave.value === 'function') return concave;
  throw new InvalidArgumentError(`${fn}: concave must be 'exponential', 'quadratic', a ConcaveTerm or a function, got ${JSON.stringify(concave)}`);
}
