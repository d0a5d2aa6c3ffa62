import { isNotRun, validationView, type RunOutcome, type ValidationView } from '@mia/experiments/reproduce';

/** The early-stopping epoch matched to a defense's validation accuracy, and what it rests on. */
export interface MatchedStop {
  /** Epochs to train (1-based: stop after this epoch), in `[1, curve.length − 1]`. */
  readonly epoch: number;
  /** The undefended run's validation accuracy after that epoch. */
  readonly accuracy: number;
  /** The defense's final validation accuracy it was matched to. */
  readonly target: number;
}

/**
 * The epoch at which to stop the undefended run so that its validation accuracy matches `target`
 * (docs/protocol.md A11, §4.11): the epoch whose accuracy on the validation curve is closest to
 * `target`, the earliest on ties, among epochs 1 … E − 1 (a control must stop before the run ends).
 * @throws Error when the curve has fewer than 2 epochs or `target` is not a number in [0, 1].
 */
export function matchedStopEpoch(curve: readonly number[], target: number): MatchedStop {
  if (curve.length < 2) throw new Error(`matchedStopEpoch: curve must have at least 2 epochs, got ${curve.length}`);
  if (!(target >= 0 && target <= 1)) throw new Error(`matchedStopEpoch: target must be an accuracy in [0, 1], got ${target}`);
  let best = 0;
  for (let e = 1; e < curve.length - 1; e++) if (Math.abs(curve[e]! - target) < Math.abs(curve[best]! - target)) best = e;
  return { epoch: best + 1, accuracy: curve[best]!, target };
}

/**
 * Reads the match off the {@link ValidationView}s of a selection run's rows: the undefended unit's
 * per-epoch validation curve and the defense's final validation accuracy — nothing of the evaluation
 * data. Undefined when either row is missing or the run recorded no curve (no validation slice, or a
 * one-epoch run).
 */
export function matchedStopOfViews(views: readonly ValidationView[], undefended: string, defense: string): MatchedStop | undefined {
  const curve = views.find((v) => v.label === undefended)?.validationCurve;
  const target = views.find((v) => v.label === defense)?.validationAccuracy;
  if (curve === undefined || curve.length < 2 || target === undefined) return undefined;
  return matchedStopEpoch(curve, target);
}

/**
 * Reads the match off a selection run that trained the undefended target (`undefended`) and the
 * defense (`defense`) with a validation slice ({@link matchedStopOfViews} on its rows' validation
 * views). Undefined when the run did not happen or recorded no curve.
 */
export function matchedStopOf(run: RunOutcome, undefended: string, defense: string): MatchedStop | undefined {
  return isNotRun(run) ? undefined : matchedStopOfViews(run.rows.map(validationView), undefended, defense);
}
