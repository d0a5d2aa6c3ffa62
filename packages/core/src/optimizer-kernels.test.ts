import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adam } from './adam';
import type { Optimizer } from './optimizer';
import { ADAM_UPDATE, SGD_UPDATE } from './optimizer-kernels';
import { seededRandom } from './random';
import { sgd } from './sgd';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

type CpuBackend = { readSync(id: object): Float32Array; makeTensorInfo(shape: number[], dtype: 'float32', values: Float32Array): tf.TensorInfo };
interface Call {
  inputs: string[];
  attrs: Record<string, unknown>;
}

const f = Math.fround;

/**
 * The update kernels written in JS on the cpu backend from the contract SGD_UPDATE and ADAM_UPDATE
 * document (float32 rounding after every operation, in the JS path's order), recording their calls:
 * the optimizers' glue (which inputs on which step, the buffers they keep) is what is tested.
 */
function registerReferenceKernels(calls: Call[]): void {
  tf.registerKernel({
    kernelName: SGD_UPDATE,
    backendName: 'cpu',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const b = backend as unknown as CpuBackend;
      const t = inputs as Record<string, tf.TensorInfo | undefined>;
      calls.push({ inputs: Object.keys(t).sort(), attrs: { ...attrs } });
      const { lr, momentum: mu, dampening, nesterov, weightDecay } = attrs as Record<string, number>;
      const [w, g] = [b.readSync(t['variable']!.dataId), b.readSync(t['gradient']!.dataId)];
      const buf = t['momentum'] === undefined ? undefined : b.readSync(t['momentum'].dataId);
      const out = new Float32Array(w.length);
      const outBuf = new Float32Array(w.length);
      for (let i = 0; i < w.length; i++) {
        let d = weightDecay !== 0 ? f(g[i]! + f(w[i]! * f(weightDecay!))) : g[i]!;
        if (mu !== 0) {
          const next = buf === undefined ? d : f(f(buf[i]! * f(mu!)) + (dampening !== 0 ? f(d * f(1 - dampening!)) : d));
          outBuf[i] = next;
          d = nesterov ? f(d + f((buf === undefined ? d : next) * f(mu!))) : next;
        }
        out[i] = f(w[i]! - f(d * f(lr!)));
      }
      const shape = t['variable']!.shape;
      return mu === 0 ? [b.makeTensorInfo(shape, 'float32', out)] : [b.makeTensorInfo(shape, 'float32', out), b.makeTensorInfo(shape, 'float32', outBuf)];
    },
  });
  tf.registerKernel({
    kernelName: ADAM_UPDATE,
    backendName: 'cpu',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const b = backend as unknown as CpuBackend;
      const t = inputs as Record<string, tf.TensorInfo>;
      calls.push({ inputs: Object.keys(t).sort(), attrs: { ...attrs } });
      const { lr, beta1, beta2, epsilon, weightDecay, biasCorrection1, biasCorrection2 } = attrs as Record<string, number>;
      const [w, g, m, v] = ['variable', 'gradient', 'm', 'v'].map((k) => b.readSync(t[k]!.dataId));
      const [out, outM, outV] = [0, 1, 2].map(() => new Float32Array(w!.length));
      for (let i = 0; i < w!.length; i++) {
        const gi = weightDecay !== 0 ? f(g![i]! + f(w![i]! * f(weightDecay!))) : g![i]!;
        outM![i] = f(f(m![i]! * f(beta1!)) + f(gi * f(1 - beta1!)));
        outV![i] = f(f(v![i]! * f(beta2!)) + f(f(gi * gi) * f(1 - beta2!)));
        const denom = f(f(Math.sqrt(f(outV![i]! / f(biasCorrection2!)))) + f(epsilon!));
        out![i] = f(w![i]! - f(f(f(outM![i]! / f(biasCorrection1!)) / denom) * f(lr!)));
      }
      return [out!, outM!, outV!].map((values) => b.makeTensorInfo(t['variable']!.shape, 'float32', values));
    },
  });
}

afterEach(() => {
  for (const name of [SGD_UPDATE, ADAM_UPDATE]) if (tf.getKernel(name, 'cpu') !== undefined) tf.unregisterKernel(name, 'cpu');
});

/** Three steps on two variables (LR 0.1, 0.1, 0.05); the bits of the variables and the optimizer's state, and the tensors left. */
function threeSteps(make: () => Optimizer): { bits: number[][]; leftOver: number } {
  const random = seededRandom(3);
  const values = (n: number) => Float32Array.from({ length: n }, () => 2 * random.next() - 1);
  const before = tf.memory().numTensors;
  // tf.tidy frees the initial values, not the variables.
  const vars = tf.tidy(() => [tf.variable(tf.tensor2d(values(6), [2, 3]), true, 'k_w0'), tf.variable(tf.tensor1d(values(4)), true, 'k_w1')]);
  const optimizer = make();
  for (const lr of [0.1, 0.1, 0.05]) {
    const grads = Object.fromEntries(vars.map((v) => [v.name, tf.tensor(values(v.size), v.shape)]));
    optimizer.applyGradients(vars, grads, lr);
    tf.dispose(Object.values(grads));
  }
  const state = optimizer.getState();
  const bits = [...vars, ...state.map((s) => s.tensor)].map((t) => Array.from(new Uint32Array(Float32Array.from(t.dataSync()).buffer)));
  tf.dispose([...vars, ...state.map((s) => s.tensor)]);
  optimizer.dispose();
  return { bits, leftOver: tf.memory().numTensors - before };
}

describe('sgd and adam on a backend with fused update kernels', () => {
  for (const [name, kernel, make, firstInputs, laterInputs] of [
    [
      'sgd with Nesterov momentum and weight decay',
      SGD_UPDATE,
      () => sgd({ lr: 0.1, momentum: 0.9, nesterov: true, weightDecay: 5e-4 }),
      ['gradient', 'variable'],
      ['gradient', 'momentum', 'variable'],
    ],
    ['sgd with dampening', SGD_UPDATE, () => sgd({ lr: 0.1, momentum: 0.8, dampening: 0.25 }), ['gradient', 'variable'], ['gradient', 'momentum', 'variable']],
    ['sgd without momentum', SGD_UPDATE, () => sgd({ lr: 0.1, weightDecay: 1e-2 }), ['gradient', 'variable'], ['gradient', 'variable']],
    [
      'adam with weight decay',
      ADAM_UPDATE,
      () => adam({ lr: 0.01, weightDecay: 5e-4 }),
      ['gradient', 'm', 'v', 'variable'],
      ['gradient', 'm', 'v', 'variable'],
    ],
  ] as const) {
    it(`${name}: one kernel call per variable and step, the JS path's bits and state, nothing left over`, () => {
      const js = threeSteps(make);
      const calls: Call[] = [];
      registerReferenceKernels(calls);
      const fused = threeSteps(make);
      expect(calls).toHaveLength(6);
      expect(calls[0]!.inputs).toEqual(firstInputs);
      expect(calls[5]!.inputs).toEqual(laterInputs);
      expect(calls[4]!.attrs['lr']).toBe(0.05);
      if (kernel === ADAM_UPDATE) expect(calls[4]!.attrs['biasCorrection1']).toBe(1 - 0.9 ** 3);
      expect(fused.bits).toEqual(js.bits);
      expect(fused.leftOver).toBe(0);
      expect(js.leftOver).toBe(0);
    });
  }
});
