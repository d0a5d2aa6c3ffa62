import { expandGrid, type DefenseRow, type ExperimentResults } from '@mia/experiments';
import { selectDpSgdSettings, validationView, type RegisteredChooser } from '@mia/experiments/reproduce';
import { ablationSetup } from './configs';
import { chooseFig3Settings } from './fig3-choice';
import { fig3Config, fig3CurveKnobs, fig3DpCurve, fig3DpLabel, fig3DpSelectionConfig, fig3DpSettings, fig3Setup, type Fig3DpCurve } from './fig3';
import { VARIANTS, chooseOnValidation, fig5aConfig } from './fig5a';

const planned = (defenses: ReadonlyArray<{ readonly label?: string; readonly name: string; readonly params: Record<string, unknown> }>) =>
  defenses.map((d) => ({ label: d.label ?? d.name, params: d.params }));

/**
 * Every chooser of the PAST reproductions that reads a run's rows, at `cpu` scale (the committed
 * plan): Fig. 3's setting per curve and DP-SGD's settings, Fig. 5a's λ per variant. Each reads the
 * rows through `validationView` only; a test feeds them rows whose evaluation fields cannot be read.
 * (Table 1's λ is chosen from recorded candidates, `LAMBDA_SELECTION`, which hold validation and
 * train accuracy only.)
 */
export const CHOOSERS: readonly RegisteredChooser[] = [
  {
    name: "past-fig3: each curve's setting (strongest within 1 point of the undefended validation accuracy)",
    planned: () => planned(expandGrid(fig3Config(fig3Setup('cpu'), 'cpu')).defenses),
    choose: (rows) => {
      const c = chooseFig3Settings(rows, fig3CurveKnobs(fig3Setup('cpu'), 'cpu'));
      return { reference: c.reference, chosen: [...c.chosen].map(([curve, x]) => [curve, x.view.label]) };
    },
  },
  {
    name: "past-fig3: each DP-SGD ε's batch, epochs and learning rate (best validation accuracy)",
    planned: () => planned(expandGrid(fig3DpSelectionConfig(fig3Setup('cpu'), fig3DpCurve(fig3Setup('cpu'), 'cpu') as Fig3DpCurve)).defenses),
    choose: (rows: readonly DefenseRow[]) => {
      const setup = fig3Setup('cpu');
      const curve = fig3DpCurve(setup, 'cpu') as Fig3DpCurve;
      const choices = selectDpSgdSettings({ rows } as unknown as ExperimentResults, curve.epsilons.map(fig3DpLabel), fig3DpSettings(setup, curve));
      return [...(choices ?? [])].map(([label, c]) => [label, c.setting]);
    },
  },
  {
    name: "past-fig5a: each variant's λ (largest within 2 points of the base's validation accuracy)",
    planned: () => planned(expandGrid(fig5aConfig(ablationSetup('cifar100', 'cpu'), 'cpu')).defenses),
    choose: (rows) => {
      const views = rows.map(validationView);
      const base = views.find((v) => v.label === 'Base')?.validationAccuracy;
      if (base === undefined) return undefined;
      return Object.keys(VARIANTS).map(
        (variant) =>
          chooseOnValidation(
            views.filter((v) => v.label.startsWith(`${variant} `)),
            base,
          )?.label,
      );
    },
  },
];
