import type { Reproduction } from '@mia/experiments/reproduce';
import { fig12 } from './fig1-2';
import { fig3 } from './fig3';
import { fig5a } from './fig5a';
import { fig6 } from './fig6';
import { table1 } from './table1';
import { table2 } from './table2';

export { ablationSetup, datasetSetup, pastExperiment, PAST_ATTACKS, type DatasetSetup, type PastDatasetKey } from './configs';
export { table1Config, TUNING_CONTROL } from './table1';
export { CPU_PLAN, LAMBDA_SELECTION, ABLATION_LAMBDA_SELECTION } from './cpu-plan';
export { CHOOSERS } from './choosers';

/** The PAST paper's reproductions, registered by the repository's `pnpm mia` (`pnpm mia reproduce --list`). */
export const reproductions: readonly Reproduction[] = [table1, table2, fig3, fig5a, fig6, fig12];
