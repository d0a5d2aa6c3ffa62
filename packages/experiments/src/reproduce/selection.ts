import { InvalidArgumentError } from '@mia/core';

/** One value of a hyperparameter with what its model measured (docs/protocol.md §5.3). */
export interface SelectionCandidate {
  readonly value: number;
  /** Top-1 accuracy on the validation slice (never the evaluation data). */
  readonly validationAccuracy: number;
  /** Train accuracy of the same model, when the rule asks the candidates to fit. */
  readonly trainAccuracy?: number;
}

/**
 * The criterion of {@link selectHyperparameter} (docs/protocol.md §5.3):
 * - `best-validation`: the highest validation accuracy (the papers' own rule where they tune on
 *   held-out data, e.g. SAM's ρ);
 * - `strongest-within`: for a defense's strength (PAST's λ, CRL's λ), the largest value whose
 *   validation accuracy is within `tolerance` of `reference` (the undefended or λ = 0 control's):
 *   the strongest defense that keeps the accuracy, which is how the papers present their choice.
 *   Best validation accuracy would pick "no defense" there.
 * `minTrainAccuracy`: candidates whose model does not fit its members are not eligible (the claims
 * presuppose fitted models).
 */
export type SelectionCriterion =
  | { readonly kind: 'best-validation'; readonly minTrainAccuracy?: number }
  | { readonly kind: 'strongest-within'; readonly reference: number; readonly tolerance: number; readonly minTrainAccuracy?: number };

/** The value {@link selectHyperparameter} chose and why, in words a report can print. */
export interface Selection {
  readonly chosen: number;
  readonly reason: string;
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/**
 * Chooses a hyperparameter by the one selection rule of the reproductions (docs/protocol.md §5.3) from
 * candidates measured on the validation slice; ties go to the first candidate in the given order.
 * @throws InvalidArgumentError when there are no candidates, a number is not finite, a fitting rule
 *   lacks a candidate's train accuracy, or no candidate is eligible (naming the closest one).
 */
export function selectHyperparameter(candidates: readonly SelectionCandidate[], criterion: SelectionCriterion): Selection {
  if (candidates.length === 0) throw new InvalidArgumentError('selectHyperparameter: candidates must hold at least one candidate, got 0');
  candidates.forEach((c, i) => {
    if (!Number.isFinite(c.value) || !Number.isFinite(c.validationAccuracy))
      throw new InvalidArgumentError(`selectHyperparameter: candidates[${i}] must have a finite value and validationAccuracy, got ${JSON.stringify(c)}`);
    if (criterion.minTrainAccuracy !== undefined && c.trainAccuracy === undefined)
      throw new InvalidArgumentError(`selectHyperparameter: candidates[${i}].trainAccuracy must be given when minTrainAccuracy is set, got undefined`);
  });
  const min = criterion.minTrainAccuracy;
  const fits = (c: SelectionCandidate) => min === undefined || c.trainAccuracy! >= min;
  const fitting = candidates.filter(fits);
  if (fitting.length === 0)
    throw new InvalidArgumentError(
      `selectHyperparameter: no candidate fits its members (train accuracy ≥ ${pct(min!)}), got train accuracies ${candidates.map((c) => `${c.value}: ${pct(c.trainAccuracy!)}`).join(', ')}; train the candidates longer`,
    );
  const unfit = candidates.length - fitting.length;
  const unfitText = unfit === 0 ? '' : `; ${unfit} candidate(s) below ${pct(min!)} train accuracy not eligible`;
  if (criterion.kind === 'best-validation') {
    const best = fitting.reduce((a, c) => (c.validationAccuracy > a.validationAccuracy ? c : a));
    return { chosen: best.value, reason: `the highest validation accuracy (${pct(best.validationAccuracy)})${unfitText}` };
  }
  const within = fitting.filter((c) => c.validationAccuracy >= criterion.reference - criterion.tolerance);
  if (within.length === 0)
    throw new InvalidArgumentError(
      `selectHyperparameter: no candidate's validation accuracy is within ${pct(criterion.tolerance)} of the reference ${pct(criterion.reference)}, got ${fitting.map((c) => `${c.value}: ${pct(c.validationAccuracy)}`).join(', ')}; add smaller values to the grid`,
    );
  const strongest = within.reduce((a, c) => (c.value > a.value ? c : a));
  return {
    chosen: strongest.value,
    reason: `the largest value whose validation accuracy (${pct(strongest.validationAccuracy)}) is within ${pct(criterion.tolerance)} of the control's (${pct(criterion.reference)})${unfitText}`,
  };
}
