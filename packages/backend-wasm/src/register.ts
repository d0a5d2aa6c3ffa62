/**
 * Side-effect entry `@mia/backend-wasm/register`: importing it registers the wasm training kernels
 * (for code that calls `tf.setBackend('wasm')` itself). The only module of this package with side
 * effects; import it after `@tensorflow/tfjs-backend-wasm`.
 */
import '@tensorflow/tfjs-backend-wasm';
import { registerWasmTrainingKernels } from './register-wasm-training-kernels';

registerWasmTrainingKernels();
