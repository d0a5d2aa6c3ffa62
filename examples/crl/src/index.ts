import type { Reproduction } from '@mia/experiments/reproduce';
import { crlFig7 } from './fig7';
import { crlTable1 } from './table1';

/** The CRL paper's reproductions, registered by the repository's `pnpm mia`. */
export const reproductions: readonly Reproduction[] = [crlTable1, crlFig7];

export { crlTable1, rowLabel, CRL_REGIME, CRL_REGIMES, crlRegime } from './table1';
export { ADVREG_SELECTION, advRegAlpha } from './adv-reg-selection';
export { crlFig7, fig7Defenses, fig7Dataset } from './fig7';
export {
  groupConfig,
  table1Defenses,
  crlParams,
  baseLevel,
  skippedAt,
  planOf,
  lambdaSelectionConfig,
  selectCenterStep,
  advRegSelectionConfig,
  relaxLossParams,
  CPU_PLAN,
  LAMBDA_SELECTION,
  TABLE1_BUDGET,
  PAPER_PLANS,
  CRL_DATASETS,
  REDUCED_MODEL,
  type CrlDataset,
  type RelaxLevel,
} from './configs';
export { gradXAuc, gradientNormAuc } from './grad-x-auc';
export { measureGroup, type GroupMeasurement, type MeasuredRow, type MeasureGroupOptions } from './measure-group';
export { TABLE1_PAPER, TABLE1_COLUMNS, AUC_COLUMNS, APPROACHES, paperValue, type Approach, type Table1Column } from './paper-values';
export { TABLE1_CLAIMS, table1Claim, type MeasuredGroup, type CellGetter } from './table1-claims';
export { fig7Claims, ABLATIONS, type Ablation, type AblationPoint } from './fig7-claims';
export { relaxationOf, relaxationFired, relaxationNote, type RelaxationSummary } from './relaxation-counts';
