import type { TrainingKernelConfig } from './internals/training-kernel';
import { batchMatMulConfig } from './kernels/batch-mat-mul';
import { castConfig } from './kernels/cast';
import { conv2DBackpropFilterConfig } from './kernels/conv2d-backprop-filter';
import { conv2DBackpropInputConfig } from './kernels/conv2d-backprop-input';
import { fusedBatchNormConfig } from './kernels/fused-batch-norm';
import { identityConfig } from './kernels/identity';
import { maxPoolGradConfig } from './kernels/max-pool-grad';
import { meanConfig } from './kernels/mean';
import { sumConfig } from './kernels/sum';
import { tanhConfig } from './kernels/tanh';
import { tileConfig } from './kernels/tile';
import { unsortedSegmentSumConfig } from './kernels/unsorted-segment-sum';

/** Every training kernel of this package, in registration order. */
export const trainingKernelConfigs: readonly TrainingKernelConfig[] = [
  conv2DBackpropFilterConfig,
  conv2DBackpropInputConfig,
  batchMatMulConfig,
  tileConfig,
  sumConfig,
  meanConfig,
  maxPoolGradConfig,
  identityConfig,
  castConfig,
  unsortedSegmentSumConfig,
  tanhConfig,
  fusedBatchNormConfig,
];
