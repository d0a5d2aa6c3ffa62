import type { ReproductionScale } from '@mia/experiments/reproduce';
import { CPU_PLAN } from './configs';

/** How the SharpReg-protocol attacks of one model are run (per scale). */
export interface EvaluationOptions {
  /** Number of random attack-data splits (the paper: 5). */
  readonly splits: number;
  /** NN-SEL training epochs (the reference: 150). */
  readonly nnEpochs: number;
  /** Epochs of the NN on the augmented queries' correctness bits (docs/protocol.md §3.3: 5). */
  readonly augmentationNnEpochs: number;
  /** Crop padding of the image multi-query attack: (2p+1)²·2 queries (the reference: p = 4, 162 queries). */
  readonly cropPadding: number;
  /** Members and non-members (each) queried by the multi-query attacks (the reference: all). */
  readonly multiQueryExamples: number;
  /** Flip counts of the tabular label-only attack (the reference: 1..30). */
  readonly flips: readonly number[];
  /** Noisy copies per example and flip count (the reference: 100). */
  readonly flipRepeats: number;
}

/**
 * The attack settings of a scale. `paper` is the reference setting (docs/protocol.md §3.2 NN-SEL, §3.4
 * 162 queries, §3.5 flips 1..30 × 100); the reduced scales cut the expensive parts and say so in
 * the report notes.
 */
export function evaluationOptions(scale: ReproductionScale): EvaluationOptions {
  if (scale === 'paper')
    return {
      splits: 5,
      nnEpochs: 150,
      augmentationNnEpochs: 5,
      cropPadding: 4,
      multiQueryExamples: Number.MAX_SAFE_INTEGER,
      flips: Array.from({ length: 30 }, (_, i) => i + 1),
      flipRepeats: 100,
    };
  if (scale === 'cpu') return CPU_PLAN.evaluation;
  return { splits: 2, nnEpochs: 1, augmentationNnEpochs: 1, cropPadding: 0, multiQueryExamples: 20, flips: [1, 8], flipRepeats: 2 };
}

/** A one-line description of the attack settings for the report notes. */
export function describeEvaluation(options: EvaluationOptions): string {
  return (
    `Attacks (SharpReg protocol, App. C.3): for each of ${options.splits} seeded splits the target's members and non-members are halved into attacker-known (D_atr) and evaluation (D_ate) sets; ` +
    `single-query = NN-SEL (${options.nnEpochs} epochs, final epoch) and threshold attacks on confidence p_y, correctness, entropy, modified entropy (global or per-class thresholds, chosen on the known half); ` +
    `multi-query = crop×flip augmentation with padding ${options.cropPadding} (${(2 * options.cropPadding + 1) ** 2 * 2} queries; threshold on the fraction correct, and the NN on the correctness bits) on images, ` +
    `feature-flip noise with m ∈ {${options.flips.join(', ')}} × ${options.flipRepeats} copies (m chosen on the known half) on tabular data; multi-query attacks use at most ${options.multiQueryExamples} members and non-members. ` +
    'Accuracy = balanced accuracy on the evaluation half; best = the maximum over the attacks of a kind, per split; mean ± sample std over the splits.' +
    (options.nnEpochs < 150
      ? ` NN-SEL (Adam 1e-4, batches of 1024) gets only about ${options.nnEpochs} optimiser steps per split at this scale and can stay at 50 % (an uninformative NN column).`
      : '')
  );
}
