import * as tf from '@tensorflow/tfjs-core';
import { checkNumberInRange, option, optionsSchema, type Gradients, type ParameterKind, type SgdOptions, type TrainingPlugin } from '@mia/core';

/** Options of {@link l1Plugin}. */
export interface L1Options {
  /** Penalty λ ≥ 0. @default 1e-3 (PASTr `L1.py`) */
  readonly lambda?: number;
  /** Parameter-group kinds whose weights are penalised. @default ['conv', 'dense', 'batchnorm'] */
  readonly kinds?: readonly ParameterKind[];
  /** Also penalise biases / BN shifts (the reference code does not). @default false */
  readonly includeBiases?: boolean;
}

/** The schema of {@link L1Options} (validation, defaults, JSON Schema; unknown keys are errors). @see docs/protocol.md §4.12 */
export const l1OptionsSchema = optionsSchema({
  lambda: option.number({ min: 0, default: 1e-3, description: 'Penalty λ (PASTr L1.py).' }),
  kinds: option.list(option.choice(['conv', 'dense', 'batchnorm'], {}), {
    default: ['conv', 'dense', 'batchnorm'],
    description: 'Parameter-group kinds whose weights are penalised.',
  }),
  includeBiases: option.boolean({ default: false, description: 'Also penalise biases and BN shifts.' }),
});

/**
 * L1 regularisation as a `TrainingPlugin`: after backprop, `grad(W) += λ·sign(W)` for the weights of
 * the classifier's conv, dense and batch-norm `parameterGroups` (sign(0) = 0), before the optimizer
 * step (which still applies its own weight decay). No loss term is added, as in PASTr.
 * @throws InvalidArgumentError on a negative λ or an unknown kind.
 * @see docs/protocol.md §4.12 (PASTr `L1.py`); grid `baselineGrids.l1`.
 */
export function l1Plugin(options: L1Options = {}): TrainingPlugin {
  const { lambda, kinds, includeBiases } = l1OptionsSchema.parse(options, 'l1Plugin');
  return {
    name: `l1(λ=${lambda})`,
    adjustGradients(ctx, grads) {
      const out: Gradients = { ...grads };
      for (const group of ctx.model.parameterGroups) {
        if (!(kinds as readonly ParameterKind[]).includes(group.kind)) continue;
        const targets = includeBiases && group.bias !== undefined ? [group.weight, group.bias] : [group.weight];
        for (const v of targets) {
          const g = out[v.name];
          if (g !== undefined) out[v.name] = tf.add(g, tf.mul(tf.sign(v), lambda));
        }
      }
      return out;
    },
  };
}

/**
 * The SGD options of the L2 baseline: PyTorch-coupled weight decay is the L2 penalty
 * `(wd/2)·‖θ‖²` (docs/protocol.md §0), so L2 is swept by changing `weightDecay` of `sgd(...)`.
 * @param weightDecay - the L2 coefficient (≥ 0). @default 5e-4
 * @param base - other SGD options. @default `{lr: 0.01, momentum: 0.9}` (the PAST baselines; use with `cosine(epochs)`)
 * @returns options for `sgd` from `@mia/core`.
 * @throws InvalidArgumentError on a negative or non-finite weight decay.
 * @see docs/protocol.md §4.12; grid `baselineGrids.l2`.
 */
export function l2SgdOptions(weightDecay = 5e-4, base: Partial<SgdOptions> = {}): SgdOptions {
  checkNumberInRange('l2SgdOptions', 'weightDecay', weightDecay, 0);
  return { lr: 0.01, momentum: 0.9, ...base, weightDecay };
}
