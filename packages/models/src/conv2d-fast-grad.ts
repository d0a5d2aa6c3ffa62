import * as tf from '@tensorflow/tfjs-core';

const cache = new Map<number, (x: tf.Tensor4D, w: tf.Tensor4D) => tf.Tensor4D>();

/**
 * The filter gradient of a valid, strided convolution computed as a forward convolution with the
 * roles swapped (docs/performance.md, fix 3): `dW[a,b,ci,co] = Σ_{n,i,j} x[n, a+i·s, b+j·s, ci]·dy[n,i,j,co]`
 * is `conv2d(x as [Ci,H,W,N], dy as [Ho,Wo,N,Co], dilation s)` cropped to the kernel size.
 * @internal
 */
export function filterGradient(x: tf.Tensor4D, dy: tf.Tensor4D, kernel: readonly [number, number], stride: number): tf.Tensor4D {
  return tf.tidy(() => {
    const xt = tf.transpose(x, [3, 1, 2, 0]);
    const dyt = tf.transpose(dy, [1, 2, 0, 3]);
    const full = tf.conv2d(xt, dyt, 1, 'valid', 'NHWC', stride);
    const cropped = tf.slice(full, [0, 0, 0, 0], [-1, kernel[0], kernel[1], -1]);
    return tf.transpose(cropped, [1, 2, 0, 3]);
  });
}

/**
 * A valid convolution `conv2d(x, w, stride)` whose filter gradient avoids the stock cpu kernel
 * `Conv2DBackpropFilter`, which is 20–100× slower than the cpu `Conv2D` (measured on a SmallCNN
 * step: 7.1 s of 7.7 s). Only used on the `cpu` backend; other backends keep their own kernels.
 * The input gradient is the stock `conv2dTranspose`.
 * @internal
 */
export function conv2dValidFastGrad(x: tf.Tensor4D, w: tf.Tensor4D, stride: number): tf.Tensor4D {
  let op = cache.get(stride);
  if (op === undefined) {
    const f = (xs: tf.Tensor, ws: tf.Tensor, save: tf.GradSaveFunc) => {
      const x4 = xs as tf.Tensor4D;
      const w4 = ws as tf.Tensor4D;
      save([x4, w4]);
      return {
        value: tf.conv2d(x4, w4, stride, 'valid'),
        gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
          const [sx, sw] = saved as [tf.Tensor4D, tf.Tensor4D];
          const dy4 = dy as tf.Tensor4D;
          const dx = tf.conv2dTranspose(dy4, sw, sx.shape, stride, 'valid');
          return [dx, filterGradient(sx, dy4, [sw.shape[0], sw.shape[1]], stride)];
        },
      };
    };
    op = tf.customGrad(f as unknown as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor4D, w: tf.Tensor4D) => tf.Tensor4D;
    cache.set(stride, op);
  }
  return op(x, w);
}
