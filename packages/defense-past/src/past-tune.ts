import type { Classifier, LabeledData, TrainResult } from '@mia/core';
import type { PastPenaltyOptions } from './past-penalty';
import { resolvePastOptions } from './past-options';
import { createPastPlugin } from './past-plugin';
import type { RegularizedVariablesOptions } from './regularized-variables';
import { runTuningPhase, type TuningPhaseOptions } from './tuning-phase';

/** Options of {@link pastTune}. */
export interface PastTuneOptions extends TuningPhaseOptions, PastPenaltyOptions, RegularizedVariablesOptions {
  /** The inference (non-member) set. Required unless `adaptive` is false. */
  readonly nonMembers?: LabeledData;
  /** PAST's adaptive γ; `false` = plain L1/L2 tuning with γ ≡ 1 (ablation). @default true */
  readonly adaptive?: boolean;
}

/**
 * Privacy-aware sparsity tuning of an already trained classifier (PAST phase 2), on top of any
 * training or defense (PAST Table 2): `epochs` epochs of {@link pastPlugin} over the members with a
 * fresh SGD and cosine schedule. Mutates the classifier's weights (and BN statistics) in place.
 *
 * Defaults: {@link pastOptionsSchema}. Typical values (docs/protocol.md §2.1): CIFAR-10 `{lambda: 1e-3, alpha: 2.5, epochs: 50}`;
 * CIFAR-100 `{lambda: 1e-4, alpha: 2.5, epochs: 20}`; Purchase/Texas `{lambda: 1e-5, alpha: 2.5, epochs: 20}`.
 * Ablations: `alpha: 0` or `adaptive: false` = L1 tuning; `norm: 'l2'` with/without `adaptive`.
 *
 * @param classifier - A converged model (phase 1 done).
 * @param options - {@link PastTuneOptions}.
 * @returns The `train` result (per-epoch history).
 * @throws InvalidArgumentError / ShapeMismatchError on bad options or data; TrainingDivergedError; AbortError.
 * @see docs/protocol.md §4.1, §2.1, §6 items 1–5; PAST §3.2 "Implementation of tuning".
 */
export async function pastTune(classifier: Classifier, options: PastTuneOptions): Promise<TrainResult> {
  const resolved = resolvePastOptions('pastTune', options);
  return runTuningPhase('pastTune', classifier, createPastPlugin('pastTune', options, resolved), options, resolved);
}
