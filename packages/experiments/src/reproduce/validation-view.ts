import type { DefenseRow } from '../run/results';

/**
 * What a chooser (of a setting, a checkpoint, a stopping epoch, a best-of-grid) may read of a
 * runner row: its identity and what its model measured on the validation slice, nothing of the
 * evaluation data the claims are then decided on (docs/protocol.md §5.1 "Choosing a setting", §5.3).
 * Built by {@link validationView} only, so a chooser that takes views cannot reach test accuracy,
 * attacks, advantages, P1 or the loss gap.
 */
export interface ValidationView {
  readonly label: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** Top-1 accuracy on the validation slice (absent when the run has none). */
  readonly validationAccuracy: number | undefined;
  /** The target's validation accuracy after every epoch of its training (absent without a slice, or with one epoch). */
  readonly validationCurve: readonly number[] | undefined;
}

/**
 * The {@link ValidationView} of a runner row: label, params, validation accuracy and the target's
 * per-epoch validation curve (`trainingMetrics.target.validationCurve`), read and nothing else.
 */
export function validationView(row: DefenseRow): ValidationView {
  const curve = row.trainingMetrics?.target?.['validationCurve'];
  return {
    label: row.label,
    params: row.params,
    validationAccuracy: row.validationAccuracy,
    validationCurve: Array.isArray(curve) && curve.every((v) => typeof v === 'number') ? (curve as number[]) : undefined,
  };
}

/**
 * A chooser of a reproduction, registered so that one test can check every chooser of every
 * reproduction against rows whose evaluation fields cannot be read: `choose` takes the rows of the
 * run it chooses from, builds their {@link validationView}s and chooses from those; `planned` gives
 * the label and params of each of those rows as the reproduction's plan makes them.
 */
export interface RegisteredChooser {
  /** "<reproduction>: what it chooses", e.g. "past-fig3: each curve's setting". */
  readonly name: string;
  readonly planned: () => ReadonlyArray<{ readonly label: string; readonly params: Readonly<Record<string, unknown>> }>;
  readonly choose: (rows: readonly DefenseRow[]) => unknown;
}
