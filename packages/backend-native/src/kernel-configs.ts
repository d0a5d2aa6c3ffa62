import type { NativeKernelConfig } from './internals/native-kernel';
import { reluGradConfig, tanhGradConfig } from './kernels/activation-gradients';
import { batchNormReluTrainingConfig, batchNormTrainingConfig, batchNormTrainingGradConfig } from './kernels/batch-norm-training';
import { conv2DBackpropFilterConfig, conv2DBackpropInputConfig, conv2DConfig, conv2dBiasConfig, fusedConv2DConfig } from './kernels/conv2d';
import { denseBiasConfig, denseBiasGradBiasConfig, denseBiasGradInputConfig, denseBiasGradWeightConfig } from './kernels/dense-bias';
import { addNConfig, binaryConfigs, unaryConfigs } from './kernels/elementwise';
import { fusedBatchNormConfig } from './kernels/fused-batch-norm';
import { gatherV2Config } from './kernels/gather';
import { batchMatMulConfig, fusedMatMulConfig } from './kernels/mat-mul';
import { adamUpdateConfig, sgdUpdateConfig } from './kernels/optimizer-update';
import { avgPoolConfig, avgPoolGradConfig, maxPoolConfig, maxPoolGradConfig } from './kernels/pool';
import { reduceConfigs } from './kernels/reduce';
import { softmaxCrossEntropyConfig, softmaxCrossEntropyGradConfig } from './kernels/softmax-cross-entropy';

/** Every native kernel, in registration order. */
export const nativeKernelConfigs: readonly NativeKernelConfig[] = [
  conv2DConfig,
  fusedConv2DConfig,
  conv2dBiasConfig,
  conv2DBackpropInputConfig,
  conv2DBackpropFilterConfig,
  batchMatMulConfig,
  fusedMatMulConfig,
  denseBiasConfig,
  denseBiasGradInputConfig,
  denseBiasGradWeightConfig,
  denseBiasGradBiasConfig,
  softmaxCrossEntropyConfig,
  softmaxCrossEntropyGradConfig,
  gatherV2Config,
  ...binaryConfigs,
  ...unaryConfigs,
  addNConfig,
  ...reduceConfigs,
  maxPoolConfig,
  avgPoolConfig,
  maxPoolGradConfig,
  avgPoolGradConfig,
  fusedBatchNormConfig,
  batchNormTrainingConfig,
  batchNormReluTrainingConfig,
  batchNormTrainingGradConfig,
  reluGradConfig,
  tanhGradConfig,
  sgdUpdateConfig,
  adamUpdateConfig,
];
