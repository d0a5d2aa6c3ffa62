export { useNativeTraining, setNativeThreads, nativeBackendInfo, type UseNativeTrainingOptions, type NativeTrainingInfo } from './use-native-training';
export { nativeUnavailableReason } from './load-native-addon';
export { nativeKernelStats, resetNativeKernelStats, type KernelCallCounts } from './kernel-stats';
export { unregisterNativeKernels } from './register-native-kernels';
export { resolveThreads } from './resolve-threads';
export type { NativeAddonInfo } from './native-addon';
