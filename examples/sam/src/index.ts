import type { Reproduction } from '@mia/experiments/reproduce';
import { samFig3 } from './fig3';
import { samTable1 } from './table1';
import { samTable2 } from './table2';
import { samTable3 } from './table3';
import { samTable4 } from './table4';

/** The SAM paper's reproductions, registered by the repository's `pnpm mia`. */
export const reproductions: readonly Reproduction[] = [samTable1, samTable2, samTable3, samTable4, samFig3];

export {
  columnConfig,
  coreDefenses,
  rhoSelectionConfig,
  CPU_PLAN,
  SAM_RHO_SELECTION,
  TABLE1_BUDGET,
  DATASET_COLUMNS,
  SHARPREG_PARAMS,
  SAM_RHO,
  type DatasetColumn,
} from './configs';
export { evaluateModel, SINGLE_QUERY_ATTACKS, type ModelEvaluation } from './evaluate-model';
export { evaluationOptions, type EvaluationOptions } from './evaluation-options';
export { parseInfluenceMatrix, INFLUENCE_ENV } from './influence-matrix';
export { memorizationBuckets, type BucketSummary } from './memorization-buckets';
