import type { DefenseRow } from '@mia/experiments';
import { validationView, type ValidationView } from '@mia/experiments/reproduce';
import { strongestOnValidation, type StrongestChoice } from './strongest-on-validation';

/** One swept curve of Fig. 3 as the chooser sees it: its rows' label prefix, its knob and which way the knob strengthens the defense. */
export interface Fig3CurveKnob {
  /** The curve's name in the tables ("PAST", "Early stopping", "DP-SGD (ours)"). */
  readonly curve: string;
  /** What its rows' labels start with (`<prefix> <knob>=<value>`, or `<prefix> ε=<value>` for DP-SGD). */
  readonly prefix: string;
  /** The param that varies along the curve. */
  readonly knob: string;
  /** 'larger' when a larger value is a stronger defense (α, λ, ε of label smoothing…), 'smaller' for epochs of early stopping and DP-SGD's ε. */
  readonly stronger: 'larger' | 'smaller';
}

/**
 * How far below the undefended model's validation accuracy a chosen setting may be: 1 point, the
 * tolerance of the one selection rule (docs/protocol.md §5.3; our criterion, not the paper's).
 */
export const FIG3_TOLERANCE = 0.01;

/** Each curve's setting chosen on the validation slice, or why none was. */
export interface Fig3Choices {
  /** The undefended model's validation accuracy (the reference); undefined when the run has no validation slice. */
  readonly reference: number | undefined;
  readonly chosen: ReadonlyMap<string, StrongestChoice>;
  /** Curve → why it has no chosen setting. */
  readonly missing: ReadonlyMap<string, string>;
}

const pct = (v: number) => `${(100 * v).toFixed(1)} %`;

/**
 * Chooses one setting per curve of Fig. 3 on the validation slice only (docs/protocol.md §5.1
 * "Choosing a setting", §5.3): the strongest setting whose validation accuracy stays within
 * {@link FIG3_TOLERANCE} of the undefended model's — the paper's "area right of the dotted line"
 * (test accuracy ≥ the undefended model's) read on held-out data — with the one selection rule's
 * `strongest-within` criterion. The rows are read through {@link validationView}: no test accuracy,
 * attack or advantage takes part, and every curve gets exactly one setting whatever its grid size,
 * so a larger grid gains no extra chance on the evaluation data.
 */
export function chooseFig3Settings(rows: readonly DefenseRow[], curves: readonly Fig3CurveKnob[], undefended = 'w/o'): Fig3Choices {
  const views = rows.map(validationView);
  const reference = views.find((v) => v.label === undefended)?.validationAccuracy;
  const chosen = new Map<string, StrongestChoice>();
  const missing = new Map<string, string>();
  for (const c of curves) {
    const points = views.filter((v) => v.label.startsWith(`${c.prefix} `));
    if (reference === undefined) {
      missing.set(c.curve, 'the run records no validation accuracy of the undefended model, so a setting could only be chosen on the evaluation data');
      continue;
    }
    const strength = (v: ValidationView) => {
      const value = v.params[c.knob];
      return typeof value === 'number' ? (c.stronger === 'larger' ? value : -value) : Number.NaN;
    };
    const choice = strongestOnValidation(points, { reference, tolerance: FIG3_TOLERANCE, strength });
    if (choice !== undefined) chosen.set(c.curve, choice);
    else {
      const best = points.reduce<ValidationView | undefined>((b, v) => ((v.validationAccuracy ?? -1) > (b?.validationAccuracy ?? -1) ? v : b), undefined);
      missing.set(
        c.curve,
        `no ${c.curve} setting keeps validation accuracy within ${(100 * FIG3_TOLERANCE).toFixed(1)} point of the undefended model's (${pct(reference)})${best?.validationAccuracy === undefined ? '' : `; the best, ${best.label}, has ${pct(best.validationAccuracy)}`}`,
      );
    }
  }
  return { reference, chosen, missing };
}
