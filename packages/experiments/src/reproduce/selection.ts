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

/**
 * Where a choice sits in its grid (docs/protocol.md §5.3: no choice at a grid edge):
 * - `interior`: the grid brackets it. For `best-validation`, an eligible value below and one above
 *   the chosen one were measured; for `strongest-within`, a stronger (larger) value was measured and
 *   failed the rule (outside the tolerance, or not fitting), so no value of the grid beyond it could
 *   be chosen — a weaker value can never be chosen while this one passes, so the smallest value of a
 *   `strongest-within` grid is interior when a larger one fails;
 * - `smallest` / `largest`: the choice is the grid's smallest or largest eligible value, and a value
 *   beyond it might do better: extend the grid there;
 * - `only`: a single eligible value (nothing to compare);
 * - `unordered`: the values are labels, not an ordered grid (`ordered: false`); the caller judges edges.
 */
export type SelectionPosition = 'interior' | 'smallest' | 'largest' | 'only' | 'unordered';

/** The value {@link selectHyperparameter} chose and why, in words a report can print. */
export interface Selection {
  readonly chosen: number;
  readonly reason: string;
  /** Where the choice sits in the grid ({@link SelectionPosition}). */
  readonly position: SelectionPosition;
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/**
 * Chooses a hyperparameter by the one selection rule of the reproductions (docs/protocol.md §5.3) from
 * candidates measured on the validation slice; ties go to the first candidate in the given order.
 * The result says where the choice sits in the grid (`position`; with `ordered: false` the values are
 * labels, e.g. indices of a multi-dimensional grid, and the caller judges the edges).
 * @throws InvalidArgumentError when there are no candidates, a number is not finite, a fitting rule
 *   lacks a candidate's train accuracy, or no candidate is eligible (naming the closest one).
 */
export function selectHyperparameter(
  candidates: readonly SelectionCandidate[],
  criterion: SelectionCriterion,
  options: { readonly ordered?: boolean } = {},
): Selection {
  const ordered = options.ordered ?? true;
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
    const below = fitting.some((c) => c.value < best.value);
    const above = fitting.some((c) => c.value > best.value);
    const position: SelectionPosition = !ordered ? 'unordered' : below && above ? 'interior' : below ? 'largest' : above ? 'smallest' : 'only';
    return { chosen: best.value, reason: `the highest validation accuracy (${pct(best.validationAccuracy)})${unfitText}${edgeText(position)}`, position };
  }
  const within = fitting.filter((c) => c.validationAccuracy >= criterion.reference - criterion.tolerance);
  if (within.length === 0)
    throw new InvalidArgumentError(
      `selectHyperparameter: no candidate's validation accuracy is within ${pct(criterion.tolerance)} of the reference ${pct(criterion.reference)}, got ${fitting.map((c) => `${c.value}: ${pct(c.validationAccuracy)}`).join(', ')}; add smaller values to the grid`,
    );
  const strongest = within.reduce((a, c) => (c.value > a.value ? c : a));
  // A stronger value was measured and failed (tolerance or fit): the grid brackets the choice.
  const position: SelectionPosition = !ordered
    ? 'unordered'
    : candidates.some((c) => c.value > strongest.value)
      ? 'interior'
      : candidates.length === 1
        ? 'only'
        : 'largest';
  return {
    chosen: strongest.value,
    reason: `the largest value whose validation accuracy (${pct(strongest.validationAccuracy)}) is within ${pct(criterion.tolerance)} of the control's (${pct(criterion.reference)})${unfitText}${edgeText(position)}`,
    position,
  };
}

/** The reason's note on a choice at an edge of its grid. */
const edgeText = (position: SelectionPosition): string =>
  position === 'interior' || position === 'unordered'
    ? ''
    : position === 'only'
      ? '; the only eligible value (nothing compared)'
      : `; the ${position} eligible value of the grid (a value beyond it was not measured)`;
