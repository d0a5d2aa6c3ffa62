import { inputGradientNorms } from '@mia/attacks';
import type { ExperimentConfig } from '@mia/experiments';
import type { ReproductionContext } from '@mia/experiments/reproduce';
import { auc } from '@mia/metrics';

/**
 * AUC of the white-box "Grad-x ℓ2" attack from two sets of per-example input-gradient norms:
 * members have smaller gradients, so the membership score is `−‖∇ₓ CE‖₂` (docs/protocol.md §0: higher =
 * member) and the AUC is taken on the target's members vs non-members directly, no threshold.
 *
 * @param memberNorms - `‖∇ₓ CE‖₂` of each member.
 * @param nonMemberNorms - the same for each non-member.
 * @returns the ROC-AUC in [0, 1] (0.5 = chance).
 * @throws MetricsError (from `@mia/metrics`) on NaN norms or an empty side.
 * @see docs/protocol.md §3.6 (CRL "Grad-x ℓ2"), §5 "AUC".
 */
export function gradientNormAuc(memberNorms: ArrayLike<number>, nonMemberNorms: ArrayLike<number>): number {
  const scores = new Float64Array(memberNorms.length + nonMemberNorms.length);
  const isMember = new Uint8Array(scores.length);
  for (let i = 0; i < memberNorms.length; i++) {
    scores[i] = -memberNorms[i]!;
    isMember[i] = 1;
  }
  for (let i = 0; i < nonMemberNorms.length; i++) scores[memberNorms.length + i] = -nonMemberNorms[i]!;
  return auc(scores, isMember);
}

/**
 * Loads the cached target model of one defense of a config that `ctx.run` has run, computes the
 * input-gradient norms of its members and non-members in eval mode, and returns the Grad-x ℓ2 AUC.
 * The model is disposed before returning.
 *
 * @param ctx - the reproduction context.
 * @param config - the config given to `ctx.run`.
 * @param defenseLabel - the defense's label in that config.
 * @param batchSize - examples per backward pass (keep small for big models on wasm).
 * @see docs/protocol.md §3.6.
 */
export async function gradXAuc(ctx: ReproductionContext, config: ExperimentConfig, defenseLabel: string, batchSize = 128): Promise<number> {
  const unit = await ctx.loadModel(config, defenseLabel, 'target');
  try {
    const members = inputGradientNorms(unit.model, unit.data.dataset, { indices: unit.members, batchSize });
    const nonMembers = inputGradientNorms(unit.model, unit.data.dataset, { indices: unit.nonMembers, batchSize });
    return gradientNormAuc(members, nonMembers);
  } finally {
    unit.model.dispose();
  }
}
