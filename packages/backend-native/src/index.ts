export {
  useNativeTraining,
  setNativeThreads,
  nativeBackendInfo,
  nativePrecision,
  type UseNativeTrainingOptions,
  type NativeTrainingInfo,
} from './use-native-training';
export type { NativePrecision, PrecisionChoice } from './resolve-precision';
export { nativeUnavailableReason } from './load-native-addon';
export { nativeKernelStats, resetNativeKernelStats, type KernelCallCounts } from './kernel-stats';
export { unregisterNativeKernels } from './register-native-kernels';
export { resolveThreads } from './resolve-threads';
export { useOpenMpDefaults, DEFAULT_SPIN_COUNT } from './openmp-environment';
export { ThreadGovernor, threadsFor, parseProcStat, type CpuReading, type CpuReader } from './thread-governor';
export type { NativeAddonInfo } from './native-addon';
