import * as tf from '@tensorflow/tfjs-core';
import type { Classifier, TrainingPlugin } from '@mia/core';

/** A plugin that remembers the weights of the epoch with the best score, and can restore them. */
export interface BestEpochPlugin extends TrainingPlugin {
  /** The best score seen (−Infinity before the first epoch). */
  readonly bestScore: number;
  /** 0-based epoch of the best score. */
  readonly bestEpoch: number;
  /** Copies the best weights back into the network. */
  restore(): void;
  /** Frees the snapshot. */
  dispose(): void;
}

/**
 * Best-epoch selection for attack networks (SEL's `nn_attack` reports the best test accuracy over
 * its epochs, PROTOCOL §6 item 25 and §7 A9): after each epoch `scoreOf()` is measured and the
 * weights of a strictly better epoch are kept. Optimistic when the score uses evaluation data.
 *
 * @param network - The network being trained.
 * @param scoreOf - The selection score, higher is better (e.g. balanced accuracy on evaluation data).
 */
export function bestEpochPlugin(network: Classifier, scoreOf: () => number): BestEpochPlugin {
  let snapshot: tf.Tensor[] | undefined;
  let bestScore = -Infinity;
  let bestEpoch = -1;
  const free = () => {
    for (const t of snapshot ?? []) t.dispose();
    snapshot = undefined;
  };
  return {
    name: 'best-epoch',
    get bestScore() {
      return bestScore;
    },
    get bestEpoch() {
      return bestEpoch;
    },
    onEpochEnd(info) {
      const score = scoreOf();
      if (score > bestScore) {
        free();
        snapshot = network.trainableVariables.map((v) => v.clone());
        [bestScore, bestEpoch] = [score, info.epoch];
      }
    },
    restore() {
      snapshot?.forEach((t, k) => network.trainableVariables[k]!.assign(t));
    },
    dispose: free,
  };
}
