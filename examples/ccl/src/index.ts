import type { Reproduction } from '@mia/experiments/reproduce';
import { fig1 } from './fig1';
import { fig2 } from './fig2';
import { fig4 } from './fig4';
import { table1 } from './table1';

export { table1, TABLE1_PAPER, TABLE1_ROWS, EARLY_STOP_CONTROL } from './table1';
export { CPU_PLAN, type ReducedSetup } from './cpu-plan';
export { fig1 } from './fig1';
export { fig2 } from './fig2';
export { fig4 } from './fig4';
export { CHOOSERS } from './choosers';
export { baseConfig, reducedSetup, cclDefense, cclBeta, CCL_ATTACKS, type CclDataset, type BaseConfigOptions } from './configs';
export { memberLossDynamics, meanAndVariance, type LossVariant, type EpochLossStats, type MemberLossDynamicsOptions } from './member-loss-dynamics';

/**
 * The CCL paper's reproductions, registered by the repository's `pnpm mia`: Table 1, Fig. 4 (α
 * ablation), Fig. 1 (loss dynamics) and Fig. 2 (privacy-utility curves vs seven baselines). Fig. 4 runs
 * before Fig. 2 in `--all` order so Fig. 2 finds the shared α sweep in the cache.
 */
export const reproductions: readonly Reproduction[] = [table1, fig4, fig1, fig2];
