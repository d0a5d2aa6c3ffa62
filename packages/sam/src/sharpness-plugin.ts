import * as tf from '@tensorflow/tfjs-core';
import type { TrainingPlugin } from '@mia/core';
import { sharpnessGradients } from './sharpness-gradients';

/** Options shared by the SAM-family plugins. */
export interface SharpnessPluginOptions {
  /**
   * Also snapshot the classifier's `stateVariables` (BN running statistics) before the second pass
   * and restore them after it, for classifiers that ignore `updateStatistics: false`. @default true
   */
  readonly restoreStatistics?: boolean;
}

/**
 * Builds a `TrainingPlugin` whose `step` runs the two-pass sharpness update with weights
 * `d = a·g + b·g_adv`. BN statistics are updated by the first (unperturbed) pass only
 * (`updateStatistics: false` on the second, plus an optional snapshot/restore; docs/protocol.md A24).
 * @internal
 */
export function sharpnessPlugin(name: string, rho: number, gradWeight: number, advWeight: number, options: SharpnessPluginOptions = {}): TrainingPlugin {
  const restore = options.restoreStatistics ?? true;
  return {
    name,
    step(ctx, tools) {
      const state = ctx.model.stateVariables;
      let snapshot: tf.Tensor[] = [];
      const { loss, grads } = sharpnessGradients(
        {
          perturbed: ctx.model.trainableVariables,
          compute: (second) => {
            if (second && restore) snapshot = state.map((v) => tf.clone(v));
            return tools.computeGradients({ updateStatistics: !second });
          },
          afterSecond: () => {
            if (restore) state.forEach((v, k) => v.assign(snapshot[k]!));
          },
        },
        { rho, gradWeight, advWeight },
      );
      tools.applyGradients(grads);
      return loss;
    },
  };
}
