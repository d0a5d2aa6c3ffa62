/**
 * Deliberate DP-SGD implementation bugs, so that the audit's tests and its benchmark can check that
 * a one-run audit catches them. Not exported from `@mia/defense-dp`: no user can switch one on by
 * accident; only code that imports this source file can.
 * @internal
 */
export interface DpSgdFaults {
  /** The noise std is silently multiplied by this (σ × 0.1); the accountant still reports σ. */
  readonly noiseScale?: number;
  /** Per-example gradients, canary gradients included, are summed without clipping. */
  readonly skipClipping?: boolean;
  /** The accountant (`privacy()`) is told this sample rate instead of the one the training uses. */
  readonly accountedSampleRate?: number;
  /**
   * The noise is not scaled with the batch actually drawn: its std is σC/|B| (the std that belongs to
   * the batch's mean) but it is added to the batch's sum, whose sensitivity is C.
   */
  readonly noiseNotScaledWithBatch?: boolean;
}
