import type { Reproduction } from '@mia/experiments/reproduce';
import { plane } from './plane';

export {
  plane,
  planeConfig,
  planeClaims,
  planeTable,
  planeFigure,
  matchedDpRow,
  EPSILONS,
  SEEDS,
  DELTA,
  CLIP_NORM,
  EMPIRICAL,
  UNDEFENDED,
  MATCH_TOLERANCE,
  dpLabel,
  DP_GRID,
  dpSettings,
  members,
  selectionConfig,
  selectDp,
} from './plane';

/** DP-SGD's reproductions, registered by the repository's `pnpm mia`: the privacy-utility plane. */
export const reproductions: readonly Reproduction[] = [plane];
