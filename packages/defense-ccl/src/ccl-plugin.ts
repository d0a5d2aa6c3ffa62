import type { TrainingPlugin } from '@mia/core';
import { resolveCclOptions, type CclOptions } from './ccl-options';
import { cclObjective } from './convex-concave-loss';

/**
 * CCL as a `TrainingPlugin` for `train` from `@mia/core`: replaces the batch objective by
 * the CCL objective (`convexConcaveLoss`) on the classifier's logits (`fromLogits` is forced to `true`; earlier
 * plugins' objectives are ignored).
 *
 * @example
 * await train(model, data, { epochs: 120, batchSize: 128, optimizer, plugins: [cclPlugin({ alpha: 0.5 })] });
 * @throws InvalidArgumentError on bad options.
 * @see CCL Eq. 4–6; docs/protocol.md §4.2, §2.2 (hyperparameters).
 */
export function cclPlugin(options: CclOptions = {}): TrainingPlugin {
  const resolved = { ...resolveCclOptions('cclPlugin', options), fromLogits: true };
  return {
    name: `ccl(${resolved.concave.name}, α=${resolved.alpha})`,
    loss: (ctx) => cclObjective('cclPlugin', ctx.logits, ctx.labels, resolved),
  };
}
