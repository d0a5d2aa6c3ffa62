import { backend_util, type TensorInfo } from '@tensorflow/tfjs-core';
import { allFloat32, sizeOf, view } from '../internals/heap-backend';
import { input, type NativeKernelConfig } from '../internals/native-kernel';

function binaryConfig(kernelName: string, op: string): NativeKernelConfig {
  return {
    kernelName,
    run(args, ctx) {
      const { backend } = args;
      const a = input(args, 'a');
      const b = input(args, 'b');
      if (!allFloat32(a, b)) return ctx.fallback('not float32 or empty');
      const outShape = backend_util.assertAndGetBroadcastShape(a.shape, b.shape);
      if (sizeOf(outShape) === 0) return ctx.fallback('empty output');
      const out = backend.makeOutput(outShape, 'float32');
      ctx.addon.binary(op, view(backend, a), a.shape, view(backend, b), b.shape, view(backend, out), outShape);
      return out;
    },
  };
}

/** Broadcasting binary kernels on float32: Add, Sub, Multiply, RealDiv, SquaredDifference, Maximum, Minimum. */
export const binaryConfigs: NativeKernelConfig[] = [
  binaryConfig('Add', 'add'),
  binaryConfig('Sub', 'sub'),
  binaryConfig('Multiply', 'mul'),
  binaryConfig('RealDiv', 'div'),
  binaryConfig('SquaredDifference', 'squaredDifference'),
  binaryConfig('Maximum', 'maximum'),
  binaryConfig('Minimum', 'minimum'),
];

function unaryConfig(kernelName: string, op: string, alphaAttr?: string, alphaDefault = 0): NativeKernelConfig {
  return {
    kernelName,
    run(args, ctx) {
      const { backend, attrs } = args;
      const x = input(args, 'x');
      if (!allFloat32(x)) return ctx.fallback('not float32 or empty');
      const y = backend.makeOutput(x.shape, 'float32');
      const alpha = alphaAttr === undefined ? 0 : ((attrs[alphaAttr] as number | undefined) ?? alphaDefault);
      ctx.addon.unary(op, view(backend, x), view(backend, y), sizeOf(x.shape), alpha);
      return y;
    },
  };
}

/** Unary kernels on float32. */
export const unaryConfigs: NativeKernelConfig[] = [
  unaryConfig('Relu', 'relu'),
  unaryConfig('Relu6', 'relu6'),
  unaryConfig('Step', 'step', 'alpha', 0),
  unaryConfig('Tanh', 'tanh'),
  unaryConfig('Sigmoid', 'sigmoid'),
  unaryConfig('Neg', 'neg'),
  unaryConfig('Square', 'square'),
  unaryConfig('Sqrt', 'sqrt'),
  unaryConfig('Rsqrt', 'rsqrt'),
  unaryConfig('Exp', 'exp'),
  unaryConfig('Log', 'log'),
  unaryConfig('Abs', 'abs'),
  unaryConfig('Elu', 'elu'),
  unaryConfig('LeakyRelu', 'leakyRelu', 'alpha', 0.2),
];

/** `AddN` on float32 tensors of one shape. */
export const addNConfig: NativeKernelConfig = {
  kernelName: 'AddN',
  run(args, ctx) {
    const { backend } = args;
    const inputs = (Array.isArray(args.inputs) ? args.inputs : Object.values(args.inputs)) as TensorInfo[];
    const first = inputs[0];
    if (first === undefined || !allFloat32(...inputs)) return ctx.fallback('not float32 or empty');
    if (inputs.some((t) => t.shape.length !== first.shape.length || t.shape.some((d, i) => d !== first.shape[i]))) return ctx.fallback('shapes differ');
    const out = backend.makeOutput(first.shape, 'float32');
    ctx.addon.addN(
      inputs.map((t) => view(backend, t)),
      view(backend, out),
      sizeOf(first.shape),
    );
    return out;
  },
};
