import { type DefenseConfig } from '@mia/experiments';
import { byScale, type ReproductionScale } from '@mia/experiments/reproduce';
import type { CclDataset } from './configs';

/** A baseline of CCL Fig. 2 with its knob and the values swept at a scale. */
export interface BaselineGrid {
  readonly family: string;
  readonly knob: string;
  readonly values: readonly number[];
  /** How the setting is trained: a runner defense (CCL4 or CCL5), a model option, or the number of epochs. */
  readonly via: 'defense' | 'reference-defense' | 'dropout' | 'epochs';
  /** The runner defense of one value (for `via: 'defense' | 'reference-defense'`). */
  readonly defense?: (value: number, label: string) => DefenseConfig;
}

/** The label of a setting, e.g. "RelaxLoss α=0.4". */
export const settingLabel = (grid: Pick<BaselineGrid, 'family' | 'knob'>, value: number): string => `${grid.family} ${grid.knob}=${value}`;

/**
 * The seven baselines of CCL §5.1 with the grids of App. E.2 (docs/protocol.md §4.17) at `paper` scale,
 * four (AdvReg three) spread-out points of each grid at `cpu`, two at `smoke`. Early-stopping
 * checkpoints are at k/12 of the run (the paper's 25, 50, …, 275 of 300 epochs).
 * @see docs/protocol.md §4.5–4.11
 */
export function baselineGrids(scale: ReproductionScale, dataset: CclDataset, epochs: number): BaselineGrid[] {
  const tabular = dataset === 'purchase' || dataset === 'texas';
  const upper = dataset === 'purchase' ? 0.3 : dataset === 'texas' ? 0.1 : 1;
  const checkpoints = (ks: readonly number[]) => [...new Set(ks.map((k) => Math.max(1, Math.round((k / 12) * epochs))))];
  return [
    {
      family: 'RelaxLoss',
      knob: 'α',
      via: 'defense',
      values: byScale(scale, { smoke: [0.2, 1.6], cpu: [0.04, 0.2, 0.8, 1.6], paper: [0.01, 0.04, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2] }),
      defense: (alpha, label) => ({ name: 'relaxloss', label, params: { alpha, upper, variant: tabular ? 'tabular' : 'image' } }),
    },
    {
      family: 'Mixup+MMD',
      knob: 'λ',
      via: 'reference-defense',
      values: byScale(scale, { smoke: [0.1, 2], cpu: [0.01, 0.1, 1, 8], paper: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 4, 8] }),
      defense: (lambdaMmd, label) => ({ name: 'mixup-mmd', label, params: { lambdaMmd } }),
    },
    {
      family: 'AdvReg',
      knob: 'α',
      via: 'reference-defense',
      values: byScale(scale, { smoke: [0.8, 1.8], cpu: [0.8, 1.2, 1.8], paper: [0.8, 1.0, 1.2, 1.4, 1.6, 1.8] }),
      // Below paper scale the attack trains with Adam 1e-3: MLHospital's SGD 0.01 attack stays at chance
      // over a short run's few attack steps, and then α has no effect (docs/protocol/4-defenses.md §4.7).
      defense: (alpha, label) => ({ name: 'advreg', label, params: { alpha, ...(scale === 'paper' ? {} : { attackOptimizerKind: 'adam', attackLr: 1e-3 }) } }),
    },
    {
      family: 'Dropout',
      knob: 'p',
      via: 'dropout',
      values: byScale(scale, { smoke: [0.1, 0.5], cpu: [0.05, 0.3, 0.5, 0.9], paper: [0.01, 0.02, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9] }),
    },
    {
      family: 'Label smoothing',
      knob: 'ε',
      via: 'defense',
      values: byScale(scale, { smoke: [0.1, 0.5], cpu: [0.1, 0.3, 0.6, 0.9], paper: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] }),
      defense: (epsilon, label) => ({ name: 'label-smoothing', label, params: { epsilon } }),
    },
    {
      family: 'Confidence penalty',
      knob: 'β',
      via: 'defense',
      values: byScale(scale, { smoke: [0.1, 2], cpu: [0.1, 0.5, 2, 8], paper: [0.1, 0.3, 0.5, 1, 2, 4, 8] }),
      defense: (beta, label) => ({ name: 'confidence-penalty', label, params: { beta } }),
    },
    {
      family: 'Early stopping',
      knob: 'epoch',
      via: 'epochs',
      values: checkpoints(byScale(scale, { smoke: [4, 8], cpu: [1, 3, 6, 9], paper: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] })),
    },
  ];
}
