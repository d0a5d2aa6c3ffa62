import * as tf from '@tensorflow/tfjs-core';

type KernelFunc = tf.KernelConfig['kernelFunc'];
type Backend = Parameters<KernelFunc>[0]['backend'];

let stock: tf.KernelConfig | undefined;

function call(name: string, backend: Backend, inputs: tf.NamedTensorInfoMap, attrs: tf.NamedAttrMap): tf.TensorInfo {
  const kernel = tf.getKernel(name, 'cpu');
  if (kernel === undefined) throw new Error(`cpu filter gradient: the cpu backend has no ${name} kernel`);
  return kernel.kernelFunc({ inputs, backend, attrs }) as tf.TensorInfo;
}

/**
 * `Conv2DBackpropFilter` on the cpu backend as a forward convolution with the roles swapped
 * (docs/performance.md, fix 3): `dW[a,b,ci,co] = Σ_{n,i,j} xp[n, a+i·s, b+j·s, ci]·dy[n,i,j,co]` is
 * `conv2d(xp as [Ci,Hp,Wp,N], dy as [Ho,Wo,N,Co], dilation s)` cropped to the kernel size, with `xp`
 * the input padded as the forward pass padded it. The stock cpu kernel is 20–100× slower than the
 * cpu `Conv2D` (7.1 s of a 7.7 s SmallCNN step). NCHW, unequal strides and dilated forward
 * convolutions go to the stock kernel.
 */
const filterGradient: KernelFunc = ({ inputs, backend, attrs }) => {
  const { x, dy } = inputs as { x: tf.TensorInfo; dy: tf.TensorInfo };
  const a = attrs as unknown as tf.Conv2DBackpropFilterAttrs;
  const [sh, sw] = typeof a.strides === 'number' ? [a.strides, a.strides] : a.strides;
  if (a.dataFormat !== 'NHWC' || sh !== sw || x.shape.length !== 4) return stock!.kernelFunc({ inputs, backend, attrs });
  const info = tf.backend_util.computeConv2DInfo(
    x.shape as [number, number, number, number],
    a.filterShape,
    [sh, sw],
    1,
    a.pad,
    a.dimRoundingMode,
    false,
    'channelsLast',
  );
  const [kh, kw, ci, co] = a.filterShape;
  const temps: tf.TensorInfo[] = [];
  const keep = (t: tf.TensorInfo): tf.TensorInfo => (temps.push(t), t);
  try {
    const { top, bottom, left, right } = info.padInfo;
    const padded =
      top + bottom + left + right === 0
        ? x
        : keep(
            call(
              'PadV2',
              backend,
              { x },
              {
                paddings: [
                  [0, 0],
                  [top, bottom],
                  [left, right],
                  [0, 0],
                ],
                constantValue: 0,
              },
            ),
          );
    const xt = keep(call('Transpose', backend, { x: padded }, { perm: [3, 1, 2, 0] }));
    const dyt = keep(call('Transpose', backend, { x: dy }, { perm: [1, 2, 0, 3] }));
    const full = keep(call('Conv2D', backend, { x: xt, filter: dyt }, { strides: 1, pad: 'valid', dataFormat: 'NHWC', dilations: sh }));
    const cropped = keep(call('Slice', backend, { x: full }, { begin: [0, 0, 0, 0], size: [ci, kh, kw, co] }));
    return call('Transpose', backend, { x: cropped }, { perm: [1, 2, 0, 3] });
  } finally {
    const owner = backend as unknown as { disposeIntermediateTensorInfo(t: tf.TensorInfo): void };
    for (const t of temps) owner.disposeIntermediateTensorInfo(t);
  }
};

/**
 * Replaces the cpu backend's `Conv2DBackpropFilter` with {@link filterGradient} (idempotent). Called
 * by `initBackend` when it chooses `cpu`; call it yourself after `tf.setBackend('cpu')` to train
 * convolutional models on the plain cpu backend at a usable speed.
 */
export function useCpuTraining(): void {
  const current = tf.getKernel(tf.Conv2DBackpropFilter, 'cpu');
  if (current === undefined) throw new Error('useCpuTraining: the cpu backend is not loaded (import @tensorflow/tfjs-backend-cpu first)');
  if (current.kernelFunc === filterGradient) return;
  stock = current;
  tf.unregisterKernel(tf.Conv2DBackpropFilter, 'cpu');
  tf.registerKernel({ kernelName: tf.Conv2DBackpropFilter, backendName: 'cpu', kernelFunc: filterGradient });
}
