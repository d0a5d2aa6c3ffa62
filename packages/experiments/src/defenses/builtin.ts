import { advRegDefense } from './adv-reg';
import { cclDefense } from './ccl';
import { confidencePenaltyDefense } from './confidence-penalty';
import { crlDefense } from './crl';
import type { DefenseDefinition } from './definition';
import { dpSgdDefense } from './dp-sgd';
import { dropoutDefense } from './dropout';
import { earlyStopDefense } from './early-stop';
import { l1Defense } from './l1';
import { l2Defense } from './l2';
import { labelSmoothingDefense } from './label-smoothing';
import { memGuardDefense } from './mem-guard';
import { mixupMmdDefense } from './mixup-mmd';
import { noneDefense } from './none';
import { pastDefense } from './past';
import { relaxLossDefense } from './relax-loss';
import { samDefense } from './sam';
import { selenaDefense } from './selena';
import { sharpRegDefense } from './sharp-reg';

/**
 * The defenses every run knows (docs/protocol.md §4), one file each; each validates its `params` with
 * its package's schema. The order is the order of `defenseNames()` and of `mia schema`.
 */
export const BUILTIN_DEFENSES: readonly DefenseDefinition<never>[] = [
  noneDefense,
  cclDefense,
  crlDefense,
  pastDefense,
  relaxLossDefense,
  labelSmoothingDefense,
  confidencePenaltyDefense,
  l1Defense,
  advRegDefense,
  mixupMmdDefense,
  samDefense,
  sharpRegDefense,
  dropoutDefense,
  l2Defense,
  earlyStopDefense,
  dpSgdDefense,
  memGuardDefense,
  selenaDefense,
] as unknown as readonly DefenseDefinition<never>[];
