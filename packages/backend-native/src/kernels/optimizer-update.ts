import { ADAM_UPDATE, SGD_UPDATE } from '@mia/core';
import type { NamedAttrMap, TensorInfo } from '@tensorflow/tfjs-core';
import { allFloat32, sizeOf, view } from '../internals/heap-backend';
import { input, optionalInput, type NativeKernelConfig } from '../internals/native-kernel';

const sameShape = (a: TensorInfo, b: TensorInfo): boolean => a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape[i]);

/** Runs `call`; when it throws (a bad argument), frees the outputs it was to fill first. */
function filling(backend: { disposeData(dataId: object): boolean }, outputs: (TensorInfo | undefined)[], call: () => void): void {
  try {
    call();
  } catch (error) {
    for (const t of outputs) if (t !== undefined) backend.disposeData(t.dataId);
    throw error;
  }
}

function numberAttr(attrs: NamedAttrMap, name: string): number {
  const v = attrs[name];
  if (typeof v !== 'number') throw new TypeError(`@mia/backend-native: attribute ${name} must be a number, got ${typeof v}`);
  return v;
}

/**
 * `@mia/core`'s `sgd` step of one variable (`MiaSgdUpdate`) in one pass: weight decay, momentum
 * (dampening, Nesterov) and the update, writing the new variable and momentum buffer (new tensors,
 * which the optimizer assigns). Bit-equal to the optimizer's tfjs ops.
 */
export const sgdUpdateConfig: NativeKernelConfig = {
  kernelName: SGD_UPDATE,
  run(args, ctx) {
    const { backend, attrs } = args;
    const variable = input(args, 'variable');
    const gradient = input(args, 'gradient');
    const buffer = optionalInput(args, 'momentum');
    if (!allFloat32(variable, gradient, buffer) || !sameShape(variable, gradient) || (buffer !== undefined && !sameShape(variable, buffer))) {
      return ctx.fallback('not float32, empty or shapes differ');
    }
    const momentum = numberAttr(attrs, 'momentum');
    const next = backend.makeOutput(variable.shape, 'float32');
    const nextBuffer = momentum === 0 ? undefined : backend.makeOutput(variable.shape, 'float32');
    filling(backend, [next, nextBuffer], () =>
      ctx.addon.sgdUpdate(
        view(backend, variable),
        view(backend, gradient),
        buffer === undefined ? null : view(backend, buffer),
        view(backend, next),
        nextBuffer === undefined ? null : view(backend, nextBuffer),
        sizeOf(variable.shape),
        numberAttr(attrs, 'lr'),
        momentum,
        numberAttr(attrs, 'dampening'),
        attrs['nesterov'] === true,
        numberAttr(attrs, 'weightDecay'),
      ),
    );
    return nextBuffer === undefined ? [next] : [next, nextBuffer];
  },
};

/**
 * `@mia/core`'s `adam` step of one variable (`MiaAdamUpdate`) in one pass: weight decay, both moments
 * and the bias-corrected update, writing the new variable and moments (new tensors, which the
 * optimizer assigns). Bit-equal to the optimizer's tfjs ops.
 */
export const adamUpdateConfig: NativeKernelConfig = {
  kernelName: ADAM_UPDATE,
  run(args, ctx) {
    const { backend, attrs } = args;
    const variable = input(args, 'variable');
    const gradient = input(args, 'gradient');
    const m = input(args, 'm');
    const v = input(args, 'v');
    if (!allFloat32(variable, gradient, m, v) || ![gradient, m, v].every((t) => sameShape(variable, t))) {
      return ctx.fallback('not float32, empty or shapes differ');
    }
    const next = backend.makeOutput(variable.shape, 'float32');
    const nextM = backend.makeOutput(variable.shape, 'float32');
    const nextV = backend.makeOutput(variable.shape, 'float32');
    filling(backend, [next, nextM, nextV], () =>
      ctx.addon.adamUpdate(
        view(backend, variable),
        view(backend, gradient),
        view(backend, m),
        view(backend, v),
        view(backend, next),
        view(backend, nextM),
        view(backend, nextV),
        sizeOf(variable.shape),
        numberAttr(attrs, 'lr'),
        numberAttr(attrs, 'beta1'),
        numberAttr(attrs, 'beta2'),
        numberAttr(attrs, 'epsilon'),
        numberAttr(attrs, 'weightDecay'),
        numberAttr(attrs, 'biasCorrection1'),
        numberAttr(attrs, 'biasCorrection2'),
      ),
    );
    return [next, nextM, nextV];
  },
};
