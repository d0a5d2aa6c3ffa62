import type * as tf from '@tensorflow/tfjs-core';
import { option, optionsSchema } from '@mia/core';
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

const isCodeConcave = (v: unknown): v is ConcaveTerm | ((p: tf.Tensor) => tf.Tensor) =>
  typeof v === 'function' || (typeof v === 'object' && v !== null && typeof (v as ConcaveTerm).value === 'function');

/**
 * The schema of {@link CclOptions}: validation, defaults and the JSON Schema of the `ccl` defense's
 * params (strict: unknown keys are errors). Code may also pass a {@link ConcaveTerm} or a function.
 * @see CCL Table 1; docs/protocol.md §4.2
 */
export const cclOptionsSchema = optionsSchema({
  alpha: option.number({ min: 0, max: 1, default: 0.5, description: 'Weight α of the convex term; 1 − α weights the concave term.' }),
  concave: option.choice(['exponential', 'quadratic'], {
    default: 'exponential',
    description: 'CCEL (−exp(p_y)) or CCQL (−p_y − p_y²/2).',
    code: { test: isCodeConcave, description: 'a ConcaveTerm or a function' },
  }),
  scale: option.number({ min: 0, exclusiveMin: true, default: 1, description: 'Scale β of the whole averaged loss (0.01 on CIFAR-10, 0.05 on CIFAR-100).' }),
  base: option.choice(['ce', 'focal'], { default: 'ce', description: 'Convex base loss: cross-entropy or focal loss.' }),
  gamma: option.number({ min: 0, default: 2, description: 'Focal exponent γ (only with base focal).' }),
  focalConcaveSign: option.choice(['paper', 'code'], {
    default: 'paper',
    description: "Sign of the concave term in the focal variant: the paper's or the authors' code's.",
  }),
  fromLogits: option.boolean({ default: true, description: 'Predictions are logits (true) or probabilities (false).' }),
});

/**
 * Validates {@link CclOptions} and fills in the defaults of {@link cclOptionsSchema}.
 * @param fn - name of the calling function, for error messages.
 * @throws InvalidArgumentError on an out-of-range α, β or γ, an unknown option or name, or a custom term outside 𝓕.
 * @internal
 */
export function resolveCclOptions(fn: string, options: CclOptions = {}): ResolvedCclOptions {
  const o = cclOptionsSchema.parse(options, fn);
  return { ...o, concave: resolveConcave(o.concave), concaveSign: o.base === 'focal' && o.focalConcaveSign === 'code' ? -1 : 1 };
}

function resolveConcave(concave: NonNullable<CclOptions['concave']>): ConcaveTerm {
  if (concave === 'exponential') return exponentialConcave;
  if (concave === 'quadratic') return quadraticConcave;
  return typeof concave === 'function' ? concaveTerm(concave) : concave;
}
