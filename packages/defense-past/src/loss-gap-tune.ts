import type { Classifier, LabeledData, TrainResult } from '@mia/core';
import { lossGapPlugin } from './loss-gap-plugin';
import { tuningPhaseSchema } from './past-options';
import { runTuningPhase, type TuningPhaseOptions } from './tuning-phase';

/** Options of {@link lossGapTune}. */
export interface LossGapTuneOptions extends TuningPhaseOptions {
  readonly nonMembers: LabeledData;
  /** λ on `|L_m − L_n|`. */
  readonly lambda: number;
}

/**
 * The App. B ablation run as a tuning phase: `L_m + λ·|L_m − L_n|` with the same fresh optimizer,
 * schedule and non-member batch cycling as {@link pastTune}.
 * @param classifier - A converged model; mutated in place.
 * @param options - {@link LossGapTuneOptions}.
 * @returns The `train` result.
 * @throws InvalidArgumentError / ShapeMismatchError on bad options or data.
 * @see docs/protocol.md §4.1 ("LossGap"); PAST App. B, Fig. 8.
 */
export async function lossGapTune(classifier: Classifier, options: LossGapTuneOptions): Promise<TrainResult> {
  const resolved = tuningPhaseSchema.parse(options, 'lossGapTune', { allowUnknown: true });
  const plugin = lossGapPlugin({ nonMembers: options.nonMembers, lambda: options.lambda, batchSize: resolved.batchSize, seed: resolved.seed });
  return runTuningPhase('lossGapTune', classifier, plugin, options, resolved);
}
