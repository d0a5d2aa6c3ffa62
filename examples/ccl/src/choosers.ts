import { validationView, type RegisteredChooser } from '@mia/experiments/reproduce';
import { UNDEFENDED, baseConfig } from './configs';
import { chooseFig2Settings, fig2CclAlphas } from './fig2-choice';
import { baselineGrids, settingLabel } from './fig2-grids';
import { fig2Dataset } from './fig2';
import { alphaGrid, CE_LABEL } from './fig4';
import { matchedStopOfViews } from './matched-stop';
import type { Fig2Setting } from './fig2-claims';

/** Fig. 2's settings at `cpu` scale as its run plans them (family, label, knob), with the runner label of each row. */
function fig2Plan(): Array<Omit<Fig2Setting, 'row'> & { readonly rowLabel: string }> {
  const dataset = fig2Dataset('cpu');
  const epochs = baseConfig('probe', dataset, 'cpu', [UNDEFENDED()]).training.epochs;
  return [
    { family: 'w/o', label: 'w/o', strength: 0, rowLabel: CE_LABEL },
    ...(['CCQL', 'CCEL'] as const).flatMap((kind) =>
      alphaGrid('cpu').map((a) => ({ family: kind, label: `${kind} α=${a}`, strength: a, rowLabel: `${kind} α=${a}` })),
    ),
    ...baselineGrids('cpu', dataset, epochs).flatMap((g) =>
      g.values.map((v) => ({ family: g.family, label: settingLabel(g, v), strength: v, rowLabel: settingLabel(g, v) })),
    ),
  ];
}

/**
 * Every chooser of the CCL reproductions that reads a run's rows, at `cpu` scale (the committed
 * plan): Table 1's early-stop epoch (per training seed, on its selection pass) and Fig. 2's setting
 * per defense family. Each reads the rows through `validationView` only; a test feeds them rows whose
 * evaluation fields cannot be read.
 */
export const CHOOSERS: readonly RegisteredChooser[] = [
  {
    name: "ccl-table1: the early-stopping control's epoch (closest to CCQL's validation accuracy on the undefended validation curve)",
    planned: () => [
      { label: 'w/o', params: {} },
      { label: 'CCQL', params: {} },
    ],
    choose: (rows) => matchedStopOfViews(rows.map(validationView), 'w/o', 'CCQL'),
  },
  {
    name: "ccl-fig2: each defense family's setting (strongest within 1 point of the undefended validation accuracy) and the CCL setting matched to each baseline point",
    planned: () => fig2Plan().map((s) => ({ label: s.rowLabel, params: {} })),
    choose: (rows) => {
      const settings: Fig2Setting[] = fig2Plan().map((s) => ({
        family: s.family,
        label: s.label,
        strength: s.strength,
        row: rows.find((r) => r.label === s.rowLabel)!,
      }));
      const c = chooseFig2Settings(settings, fig2CclAlphas('cpu'));
      const baselines = settings.filter((s) => !['w/o', 'CCQL', 'CCEL'].includes(s.family));
      return {
        reference: c.reference,
        chosen: [...c.chosen].map(([family, s]) => [family, s.label]),
        matched: baselines.map((b) => [b.label, c.matched('CCQL', b)?.label, c.matched('CCEL', b)?.label]),
      };
    },
  },
];
