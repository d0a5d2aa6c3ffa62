import { conv2dBias } from '@mia/core';
import * as tf from '@tensorflow/tfjs-core';
import type { Layer } from './layer';
import type { BiasInit, ParameterStore, WeightInit } from './parameter-store';

/** Hyperparameters of a 2-D convolution, with PyTorch's `Conv2d` meaning. @internal */
export interface Conv2dSpec {
  readonly inChannels: number;
  readonly outChannels: number;
  /** Square size or `[height, width]`. */
  readonly kernelSize: number | readonly [number, number];
  /** @default 1 */
  readonly stride?: number;
  /** Symmetric zero padding, square or `[height, width]`, as PyTorch's `padding`. @default 0 */
  readonly padding?: number | readonly [number, number];
  /** @default true (PyTorch's default) */
  readonly bias?: boolean;
  /** @default 'uniform' */
  readonly init?: WeightInit;
  /** @default 'uniform' */
  readonly biasInit?: BiasInit;
}

const pair = (v: number | readonly [number, number]): [number, number] => (typeof v === 'number' ? [v, v] : [v[0], v[1]]);

/**
 * A `Conv2d` on NHWC tensors with PyTorch's symmetric explicit padding (TF's `'same'` pads
 * asymmetrically at stride 2, PyTorch does not). Filter layout `[kh, kw, in, out]`.
 * Registers a `conv` parameter group named `name`. (On the plain cpu backend, `useCpuTraining` from
 * `@mia/core` makes its filter gradient fast; the backends own their speed work.)
 * @internal
 */
export function conv2dLayer(store: ParameterStore, name: string, spec: Conv2dSpec): Layer {
  const [kh, kw] = pair(spec.kernelSize);
  const [ph, pw] = pair(spec.padding ?? 0);
  const stride = spec.stride ?? 1;
  const { inChannels: cin, outChannels: cout } = spec;
  const shape = [kh, kw, cin, cout];
  const fanIn = cin * kh * kw;
  const weight = store.variable(`${name}.weight`, shape, store.weightValues(shape, fanIn, cout * kh * kw, spec.init ?? 'uniform'), true);
  const bias = spec.bias === false ? undefined : store.variable(`${name}.bias`, [cout], store.biasValues(cout, fanIn, spec.biasInit ?? 'uniform'), true);
  store.group(name, 'conv', weight, bias);
  const pad: 'valid' | [[number, number], [number, number], [number, number], [number, number]] =
    ph === 0 && pw === 0
      ? 'valid'
      : [
          [0, 0],
          [ph, ph],
          [pw, pw],
          [0, 0],
        ];
  return (x, ctx) => {
    if (ctx.flops !== undefined) {
      // Shape-only pass: count 2·MACs and skip the (slow on cpu) convolution.
      const [n, h, w] = x.shape as number[];
      const out = [n!, Math.floor((h! + 2 * ph - kh) / stride) + 1, Math.floor((w! + 2 * pw - kw) / stride) + 1, cout];
      ctx.flops.total += 2 * out.reduce((a, b) => a * b, 1) * fanIn;
      return tf.zeros(out);
    }
    if (ctx.tape !== undefined) return ctx.tape.conv2d(x as tf.Tensor4D, weight, bias, { strides: stride, pad });
    // With a bias: one kernel where the backend has it (the bias added in the convolution's pass).
    if (bias !== undefined) return conv2dBias(x as tf.Tensor4D, weight as tf.Tensor4D, bias, stride, pad);
    return tf.conv2d(x as tf.Tensor4D, weight as tf.Tensor4D, stride, pad);
  };
}
