export { useWasmTraining, type UseWasmTrainingOptions, type WasmTrainingInfo } from './use-wasm-training';
export { registerWasmTrainingKernels, unregisterWasmTrainingKernels } from './register-wasm-training-kernels';
export { checkTfjsVersion, installedTfjsVersions, supportedTfjsRange, type TfjsVersions } from './check-tfjs-version';
export { replaceGradient, restoreGradient, type FastGradient } from './internals/replace-gradient';
export { isWasmBackend, heapFloat32, type WasmBackend } from './internals/wasm-backend';
