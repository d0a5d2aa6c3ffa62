import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from './errors';

/** The activations {@link denseBias} applies after the bias. */
export type DenseActivation = 'linear' | 'relu' | 'tanh';

const activations: readonly DenseActivation[] = ['linear', 'relu', 'tanh'];

/**
 * Name of the optional kernel a backend registers to compute {@link denseBias} in one call: inputs
 * `{x, weight, bias}` (`[n, in]`, `[in, out]`, `[out]`), attribute `activation` (a
 * {@link DenseActivation}), output `y = act(x·weight + bias)`. A backend that registers it registers
 * the three gradient kernels too ({@link DENSE_BIAS_GRAD_INPUT}, {@link DENSE_BIAS_GRAD_WEIGHT},
 * {@link DENSE_BIAS_GRAD_BIAS}).
 */
export const DENSE_BIAS = 'MiaDenseBias';
/** Gradient kernel of {@link DENSE_BIAS} for `x`: inputs `{dy, y, weight}`, output `(dy·act′) · weightᵀ`, act′ read from the output `y`. */
export const DENSE_BIAS_GRAD_INPUT = 'MiaDenseBiasGradInput';
/** Gradient kernel of {@link DENSE_BIAS} for `weight`: inputs `{dy, y, x}`, output `xᵀ · (dy·act′)`. */
export const DENSE_BIAS_GRAD_WEIGHT = 'MiaDenseBiasGradWeight';
/** Gradient kernel of {@link DENSE_BIAS} for `bias`: inputs `{dy, y}`, output the sum over rows of `dy·act′`. */
export const DENSE_BIAS_GRAD_BIAS = 'MiaDenseBiasGradBias';

const kernels = [DENSE_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT, DENSE_BIAS_GRAD_BIAS];

let gradientRegistered = false;

function registerGradientOnce(): void {
  if (gradientRegistered) return;
  gradientRegistered = true;
  tf.registerGradient({
    kernelName: DENSE_BIAS,
    inputsToSave: ['x', 'weight'],
    outputsToSave: [true],
    // One function per input: the tape calls only those of inputs on a path to what is
    // differentiated, so the first layer (whose input is data) computes no input gradient, and
    // each function is one kernel call (the activation's gradient recomputed from y inside it).
    gradFunc: (dy, saved, attrs) => {
      const [x, weight, y] = saved as [tf.Tensor, tf.Tensor, tf.Tensor];
      const a = { activation: attrs['activation'] } as unknown as tf.NamedAttrMap;
      const run = (name: string, inputs: tf.NamedTensorMap) => tf.engine().runKernel(name, inputs, a) as tf.Tensor;
      return {
        x: () => run(DENSE_BIAS_GRAD_INPUT, { dy: dy as tf.Tensor, y, weight }),
        weight: () => run(DENSE_BIAS_GRAD_WEIGHT, { dy: dy as tf.Tensor, y, x }),
        bias: () => run(DENSE_BIAS_GRAD_BIAS, { dy: dy as tf.Tensor, y }),
      };
    },
  });
}

/**
 * A fully connected layer `act(x·weight + bias)`: `tf.matMul(x, weight)`, then `tf.add(·, bias)`,
 * then `tf.relu` or `tf.tanh` (none for `'linear'`), differentiable in all three inputs. Where the
 * active backend registers the {@link DENSE_BIAS} kernels (`@mia/backend-native` does, with results
 * bit-equal to those three ops), it runs as one kernel forward and one per input gradient backward
 * (the tape calls only those of inputs that need one: not the input gradient of a network's first
 * layer); elsewhere it is exactly the tfjs ops.
 * @param x - activations `[batch, in]`, float32.
 * @param weight - `[in, out]`.
 * @param bias - `[out]`.
 * @param activation - applied after the bias. @default 'linear'
 * @returns `[batch, out]`.
 * @throws InvalidArgumentError when the shapes do not fit together or the activation is unknown.
 */
export function denseBias(
  x: tf.Tensor2D | tf.Tensor,
  weight: tf.Tensor2D | tf.Tensor,
  bias: tf.Tensor1D | tf.Tensor,
  activation: DenseActivation = 'linear',
): tf.Tensor2D {
  if (x.rank !== 2) throw new InvalidArgumentError(`denseBias: x must have rank 2 ([batch, in]), got shape [${x.shape.join(',')}]`);
  if (weight.rank !== 2 || weight.shape[0] !== x.shape[1]) {
    throw new InvalidArgumentError(`denseBias: weight must have shape [${x.shape[1]}, out], got [${weight.shape.join(',')}]`);
  }
  if (bias.rank !== 1 || bias.shape[0] !== weight.shape[1]) {
    throw new InvalidArgumentError(`denseBias: bias must have shape [${weight.shape[1]}], got [${bias.shape.join(',')}]`);
  }
  if (!activations.includes(activation)) {
    throw new InvalidArgumentError(`denseBias: activation must be one of ${activations.join(', ')}, got ${JSON.stringify(activation)}`);
  }
  const backend = tf.getBackend();
  const fused = kernels.every((k) => tf.getKernel(k, backend) !== undefined) && [x, weight, bias].every((t) => t.dtype === 'float32' && t.size > 0);
  if (!fused) {
    return tf.tidy(() => {
      const z = tf.add(tf.matMul(x as tf.Tensor2D, weight as tf.Tensor2D), bias) as tf.Tensor2D;
      return activation === 'relu' ? tf.relu(z) : activation === 'tanh' ? tf.tanh(z) : z;
    });
  }
  registerGradientOnce();
  return tf.engine().runKernel(DENSE_BIAS, { x, weight, bias }, { activation } as unknown as tf.NamedAttrMap) as tf.Tensor2D;
}
