import { byScale, isNotRun, selectHyperparameter, validationView, type ReproductionScale } from '@mia/experiments/reproduce';
import type { Fig2Setting } from './fig2-claims';

/**
 * How far below the undefended model's validation accuracy a chosen setting may be: 1 point, the
 * tolerance of the one selection rule (docs/protocol.md §5.3; our criterion, not the paper's).
 */
export const FIG2_TOLERANCE = 0.01;

/**
 * The α values of CCQL and CCEL that compete in Fig. 2's claims: at reduced scales an a-priori subset
 * of App. E.1's grid as large as the largest baseline grid of the scale (4 at `cpu`: the evenly spaced
 * interior points 0.2, 0.4, 0.6, 0.8; 2 at `smoke`), fixed before any result, so that no family has
 * more settings to choose from than another; at `paper` scale the paper's whole grid (9 values, the
 * baselines' grids have 6–11). The table and the figure still show every α.
 */
export const fig2CclAlphas = (scale: ReproductionScale): readonly number[] =>
  byScale(scale, { smoke: [0.5, 0.9], cpu: [0.2, 0.4, 0.6, 0.8], paper: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] });

/** Families whose knob strengthens the defense as it decreases: CCL's α (Fig. 4b: the advantage grows with α) and the early-stopping epoch. */
const STRONGER_WHEN_SMALLER = new Set(['CCQL', 'CCEL', 'Early stopping']);

/** What the Fig. 2 chooser may read of a setting: its family, label and knob, and its model's validation accuracy (built by {@link fig2View}). */
export interface Fig2View {
  readonly family: string;
  readonly label: string;
  readonly strength: number;
  readonly validationAccuracy: number | undefined;
}

/** A setting's {@link Fig2View}, its row read through `validationView` (undefined when the setting did not run). */
export function fig2View(s: Fig2Setting): Fig2View | undefined {
  if (isNotRun(s.row)) return undefined;
  return { family: s.family, label: s.label, strength: s.strength, validationAccuracy: validationView(s.row).validationAccuracy };
}

/** Each family's setting chosen on the validation slice, or why none was. */
export interface Fig2Choices {
  /** The undefended model's validation accuracy; undefined when the run has no validation slice. */
  readonly reference: number | undefined;
  readonly chosen: ReadonlyMap<string, Fig2Setting>;
  readonly missing: ReadonlyMap<string, string>;
  /** The strongest setting of `family` whose validation accuracy is at least `to`'s (matched on the validation slice), or undefined. */
  matched(family: string, to: Fig2Setting): Fig2Setting | undefined;
}

const pct = (v: number) => `${(100 * v).toFixed(1)} %`;

/**
 * Chooses one setting per defense family of Fig. 2 on the validation slice only (docs/protocol.md
 * §5.1 "Choosing a setting", §5.3): the strongest setting whose validation accuracy stays within
 * {@link FIG2_TOLERANCE} of the undefended model's (the `strongest-within` criterion of
 * `selectHyperparameter`), CCQL and CCEL among `cclAlphas` only ({@link fig2CclAlphas}). The settings
 * are read through {@link fig2View}: no test accuracy, attack or advantage takes part, so the claims
 * decided afterwards on the evaluation data are not the minimum of a grid over that data.
 */
export function chooseFig2Settings(settings: readonly Fig2Setting[], cclAlphas: readonly number[]): Fig2Choices {
  const eligible = (s: Fig2Setting) => !['CCQL', 'CCEL'].includes(s.family) || cclAlphas.includes(s.strength);
  const views = settings.flatMap((s) => {
    const v = eligible(s) ? fig2View(s) : undefined;
    return v === undefined ? [] : [{ setting: s, view: v }];
  });
  const reference = views.find((v) => v.view.family === 'w/o')?.view.validationAccuracy;
  const chosen = new Map<string, Fig2Setting>();
  const missing = new Map<string, string>();
  const families = [...new Set(settings.map((s) => s.family))].filter((f) => f !== 'w/o' && f !== 'w/o (CCL5)');
  const signed = (v: Fig2View) => (STRONGER_WHEN_SMALLER.has(v.family) ? -v.strength : v.strength);
  // The strongest candidate whose validation accuracy reaches `floor`: the one selection rule's `strongest-within` criterion.
  const strongest = (candidates: typeof views, floor: number) => {
    const within = candidates.filter((c) => c.view.validationAccuracy !== undefined && c.view.validationAccuracy >= floor);
    if (within.length === 0) return undefined;
    const { chosen } = selectHyperparameter(
      within.map((c) => ({ value: signed(c.view), validationAccuracy: c.view.validationAccuracy! })),
      { kind: 'strongest-within', reference: floor, tolerance: 0 },
    );
    return within.find((c) => signed(c.view) === chosen);
  };
  for (const family of families) {
    const of = views.filter((v) => v.view.family === family);
    if (reference === undefined) {
      missing.set(family, 'the run records no validation accuracy of the undefended model, so a setting could only be chosen on the evaluation data');
      continue;
    }
    const hit = strongest(of, reference - FIG2_TOLERANCE);
    if (hit !== undefined) chosen.set(family, hit.setting);
    else {
      const best = of.reduce<(typeof of)[number] | undefined>(
        (b, v) => ((v.view.validationAccuracy ?? -1) > (b?.view.validationAccuracy ?? -1) ? v : b),
        undefined,
      );
      missing.set(
        family,
        `no ${family} setting keeps validation accuracy within ${(100 * FIG2_TOLERANCE).toFixed(1)} point of the undefended model's (${pct(reference)})${best?.view.validationAccuracy === undefined ? '' : `; the best, ${best.view.label}, has ${pct(best.view.validationAccuracy)}`}`,
      );
    }
  }
  return {
    reference,
    chosen,
    missing,
    matched(family, to) {
      const target = fig2View(to)?.validationAccuracy;
      if (target === undefined) return undefined;
      return strongest(
        views.filter((v) => v.view.family === family),
        target,
      )?.setting;
    },
  };
}
