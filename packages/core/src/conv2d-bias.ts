import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from './errors';

/**
 * Name of the optional kernel a backend registers to compute {@link conv2dBias} in one call: inputs
 * `{x, filter, bias}` and the attributes of tfjs's `FusedConv2D` (NHWC, `activation` absent: linear),
 * output `y = conv2d(x, filter) + bias`.
 */
export const CONV2D_BIAS = 'MiaConv2DBias';

/** Explicit padding as tfjs takes it: `[[0, 0], [top, bottom], [left, right], [0, 0]]`. */
export type Conv2dPadding = 'valid' | 'same' | [[number, number], [number, number], [number, number], [number, number]];

let gradientRegistered = false;

function registerGradientOnce(): void {
  if (gradientRegistered) return;
  gradientRegistered = true;
  tf.registerGradient({
    kernelName: CONV2D_BIAS,
    inputsToSave: ['x', 'filter'],
    // One function per input: the tape calls only those of inputs on a path to what is
    // differentiated, so the first layer (whose input is data) computes no input gradient.
    gradFunc: (dy, saved, attrs) => {
      const [x, filter] = saved as [tf.Tensor4D, tf.Tensor4D];
      const { strides, pad, dimRoundingMode } = attrs as unknown as { strides: [number, number]; pad: Conv2dPadding; dimRoundingMode?: string };
      const common = { strides, pad, dataFormat: 'NHWC', dimRoundingMode } as unknown as tf.NamedAttrMap;
      return {
        x: () =>
          tf.engine().runKernel('Conv2DBackpropInput', { dy: dy as tf.Tensor, filter }, { ...common, inputShape: x.shape } as tf.NamedAttrMap) as tf.Tensor,
        filter: () =>
          tf.engine().runKernel('Conv2DBackpropFilter', { x, dy: dy as tf.Tensor }, { ...common, filterShape: filter.shape } as tf.NamedAttrMap) as tf.Tensor,
        bias: () => tf.sum(dy as tf.Tensor, [0, 1, 2]),
      };
    },
  });
}

/**
 * A 2-D convolution plus a per-channel bias, NHWC: `tf.conv2d(x, filter, strides, pad)` then
 * `tf.add(·, bias)`, differentiable in all three. Where the active backend registers the
 * {@link CONV2D_BIAS} kernel (`@mia/backend-native` does: oneDNN adds the bias in the convolution's
 * own pass), it runs as that one kernel, and its gradient computes the input gradient only when the
 * input needs one (not for a network's first layer); elsewhere it is exactly the two tfjs ops.
 * @param x - activations `[batch, height, width, inChannels]`, float32.
 * @param filter - `[kh, kw, inChannels, outChannels]`.
 * @param bias - `[outChannels]`.
 * @param strides - the same stride along height and width, a positive integer.
 * @param pad - `'valid'`, `'same'` or explicit padding (as `tf.conv2d`).
 * @throws InvalidArgumentError when the shapes do not fit together or the stride is not a positive integer.
 */
export function conv2dBias(x: tf.Tensor4D, filter: tf.Tensor4D, bias: tf.Tensor1D | tf.Tensor, strides: number, pad: Conv2dPadding): tf.Tensor4D {
  if (x.rank !== 4) throw new InvalidArgumentError(`conv2dBias: x must have rank 4 (NHWC), got shape [${x.shape.join(',')}]`);
  if (filter.rank !== 4 || filter.shape[2] !== x.shape[3]) {
    throw new InvalidArgumentError(`conv2dBias: filter must have shape [kh, kw, ${x.shape[3]}, outChannels], got [${filter.shape.join(',')}]`);
  }
  if (bias.rank !== 1 || bias.shape[0] !== filter.shape[3]) {
    throw new InvalidArgumentError(`conv2dBias: bias must have shape [${filter.shape[3]}], got [${bias.shape.join(',')}]`);
  }
  if (!Number.isInteger(strides) || strides < 1) throw new InvalidArgumentError(`conv2dBias: strides must be a positive integer, got ${strides}`);
  const fused = tf.getKernel(CONV2D_BIAS, tf.getBackend()) !== undefined && [x, filter, bias].every((t) => t.dtype === 'float32');
  if (!fused) return tf.add(tf.conv2d(x, filter, strides, pad), bias);
  registerGradientOnce();
  const attrs = { strides: [strides, strides], pad, dataFormat: 'NHWC', dilations: [1, 1], dimRoundingMode: undefined };
  return tf.engine().runKernel(CONV2D_BIAS, { x, filter, bias }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor4D;
}
