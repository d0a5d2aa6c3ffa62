import { selectHyperparameter, type ValidationView } from '@mia/experiments/reproduce';

/** Options of {@link strongestOnValidation}. */
export interface StrongestOnValidationOptions {
  /** The validation accuracy a setting must keep (the undefended or base model's). */
  readonly reference: number;
  /** How far below `reference` a setting's validation accuracy may be (our criterion; docs/protocol.md §5.3 uses 1 point). */
  readonly tolerance: number;
  /** The defense's strength at a setting (larger = stronger; e.g. −epochs for early stopping); NaN leaves the setting out. */
  readonly strength: (view: ValidationView) => number;
}

/** The setting {@link strongestOnValidation} chose and why. */
export interface StrongestChoice {
  readonly view: ValidationView;
  readonly reason: string;
}

/**
 * The strongest setting of one defense whose validation accuracy stays within `tolerance` of
 * `reference`: the one selection rule's `strongest-within` criterion (docs/protocol.md §5.3), read off
 * the validation slice only — the views carry nothing of the evaluation data, so the attacks the
 * claims are then decided on take no part in the choice. Undefined when no setting has a validation
 * accuracy within the tolerance (or none has one at all).
 * @throws Error when two settings have the same strength (the order would be ambiguous).
 */
export function strongestOnValidation(views: readonly ValidationView[], options: StrongestOnValidationOptions): StrongestChoice | undefined {
  const candidates = views.flatMap((view) => {
    const value = options.strength(view);
    return view.validationAccuracy === undefined || !Number.isFinite(value) ? [] : [{ view, value, validationAccuracy: view.validationAccuracy }];
  });
  if (new Set(candidates.map((c) => c.value)).size !== candidates.length)
    throw new Error(`strongestOnValidation: views must have distinct strengths, got ${candidates.map((c) => `${c.view.label}: ${c.value}`).join(', ')}`);
  if (!candidates.some((c) => c.validationAccuracy >= options.reference - options.tolerance)) return undefined;
  const selection = selectHyperparameter(candidates, { kind: 'strongest-within', reference: options.reference, tolerance: options.tolerance });
  const chosen = candidates.find((c) => c.value === selection.chosen)!;
  const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
  return {
    view: chosen.view,
    reason: `${chosen.view.label}, the strongest setting whose validation accuracy (${pct(chosen.validationAccuracy)}) is within ${(100 * options.tolerance).toFixed(1)} point(s) of the reference's (${pct(options.reference)})`,
  };
}
