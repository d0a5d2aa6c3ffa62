/**
 * Per-example signals of one model on one ordered set of examples: what every attack consumes
 * (attacks see signals, never models; docs/protocol.md §3.0). All per-example arrays have length
 * `size`; matrices are row-major `[size, numClasses]`.
 *
 * Fields that need logits are absent when the signals were built from losses alone
 * ({@link signalsFromLosses}); attacks that need them throw a clear error.
 */
export interface ModelSignals {
  /** Number of examples n. */
  readonly size: number;
  /** Number of classes C. */
  readonly numClasses: number;
  /** True labels `y`, length n. */
  readonly labels: Int32Array;
  /** Logits z, `[n, C]` row-major. */
  readonly logits?: Float32Array;
  /** Posterior `softmax(z)`, `[n, C]` row-major. */
  readonly probabilities?: Float32Array;
  /** Cross-entropy `CE(z, y) = logsumexp(z) − z_y` (lower = more likely member). */
  readonly loss: Float64Array;
  /** Confidence `p_y` (Song & Mittal). */
  readonly trueProbability: Float64Array;
  /** Logit-scaled confidence φ = `z_y − logsumexp_{j≠y} z_j` (LiRA). */
  readonly phi: Float64Array;
  /** `max_j p_j`. */
  readonly maxProbability?: Float64Array;
  /** Entropy `−Σ p_j log max(p_j, 1e-30)`. */
  readonly entropy?: Float64Array;
  /** Song & Mittal modified entropy, logs clamped at 1e-30. */
  readonly modifiedEntropy?: Float64Array;
  /** `1[argmax z = y]` (first maximiser, like `argmax`). */
  readonly correct?: Uint8Array;
  /** Per-example input-gradient norm `‖∇_x CE(f(x), y)‖` (white-box, {@link inputGradientNorms}). */
  readonly gradientNorm?: Float64Array;
  /** Signals of augmented queries of the same examples, one entry per query (identity included if wanted). */
  readonly queries?: readonly ModelSignals[];
  /**
   * Label-only feature-flip counts (PROTOCOL §3.5): `flipCounts[k][i]` = number of correct
   * predictions of example i over the noisy copies with `flips[k]` flipped features.
   */
  readonly flipCounts?: readonly Float64Array[];
  /** The flip counts m that `flipCounts` correspond to. */
  readonly flips?: readonly number[];
  /**
   * Label-only distance of each example to the model's decision boundary (L2, in input units;
   * 0 for a misclassified example), estimated from label queries by `boundaryDistances`; the
   * `boundaryDistanceAttack` scores it (larger = more likely member).
   */
  readonly boundaryDistance?: Float64Array;
}

/** Signals of a model on its members and non-members (a shadow model's, or the target's). */
export interface SplitSignals {
  /** Signals on examples in the model's training set (label 1). */
  readonly members: ModelSignals;
  /** Signals on examples outside it (label 0). */
  readonly nonMembers: ModelSignals;
}

/**
 * Signals of reference models on one audit set (LiRA, RMIA, Attack-R; docs/protocol.md §3.8–3.10):
 * `models[k]` holds reference model k's signals on the same ordered examples as the target's
 * signals, and `keep[k][i]` says whether example i was in model k's training set.
 */
export interface ReferenceSignals {
  /** One {@link ModelSignals} per reference model, all over the same examples. */
  readonly models: readonly ModelSignals[];
  /** Membership matrix: `keep[k][i]` is 1/true when reference model k trained on example i. */
  readonly keep: readonly ArrayLike<number | boolean>[];
}
