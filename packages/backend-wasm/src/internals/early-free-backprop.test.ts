import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, onBackend, randomValues, setupWasm } from '../test-utils/backends';

const xValues = randomValues(12, 500);

/**
 * A chain of 12 full-size ops with pass-through and shared gradients: `Mod` returns its dy as the
 * input gradient, the custom op returns one tensor for both inputs. `probe` records how many tensors
 * exist when back-propagation reaches the bottom of the chain.
 */
function chain(x: tf.Tensor, probe: { tensors: number }): tf.Scalar {
  type Custom = Parameters<typeof tf.customGrad>[0];
  const twin = tf.customGrad(((a: tf.Tensor, b: tf.Tensor) => ({
    value: tf.add(a, b),
    gradFunc: (dy: tf.Tensor) => [dy, dy],
  })) as unknown as Custom);
  const bottom = tf.customGrad(((a: tf.Tensor) => ({
    value: tf.mul(a, 1),
    gradFunc: (dy: tf.Tensor) => {
      probe.tensors = tf.memory().numTensors;
      return tf.mul(dy, 1);
    },
  })) as unknown as Custom);
  let h = bottom(x);
  for (let i = 0; i < 5; i++) h = tf.tanh(tf.mul(h, 1.5));
  h = tf.mod(h, 7); // the gradient of mod with respect to its first input is dy itself
  h = twin(h, tf.sin(h)) as tf.Tensor;
  return tf.sum(tf.square(h));
}

async function gradOf(
  backendName: 'cpu' | 'wasm',
  dyValue?: number,
): Promise<{ grad: { shape: number[]; values: Float32Array }; tensorsAtBottom: number; dyAlive: boolean }> {
  await tf.setBackend(backendName);
  const probe = { tensors: 0 };
  const x = tf.tidy(() => tf.add(tf.tensor2d(xValues, [3, 4]), 2));
  const dy = dyValue === undefined ? undefined : tf.scalar(dyValue);
  const g = tf.grad((t: tf.Tensor) => chain(t, probe))(x, dy);
  const grad = { shape: g.shape, values: Float32Array.from(g.dataSync()) };
  const dyAlive = dy === undefined || !dy.isDisposed;
  tf.dispose([x, g, ...(dy ? [dy] : [])]);
  return { grad, tensorsAtBottom: probe.tensors, dyAlive };
}

describe('early freeing during back-propagation (wasm)', () => {
  beforeAll(setupWasm);

  it('gives the cpu backend gradients, with pass-through and shared input gradients', async () => {
    const cpu = await gradOf('cpu');
    const wasm = await gradOf('wasm');
    expectClose(wasm.grad, cpu.grad);
  });

  it('frees gradients and saved tensors of nodes already walked (fewer live tensors at the bottom)', async () => {
    // cpu runs tfjs unchanged (everything kept to the end); on wasm the ~30 intermediates are gone.
    const cpu = await gradOf('cpu');
    const wasm = await gradOf('wasm');
    expect(wasm.tensorsAtBottom).toBeLessThan(cpu.tensorsAtBottom - 15);
  });

  it('leaves the dy passed by the caller alive, and leaks nothing', async () => {
    await tf.setBackend('wasm');
    const before = tf.memory().numTensors;
    const withDy = await gradOf('wasm', 3);
    const plain = await gradOf('wasm');
    expect(withDy.dyAlive).toBe(true);
    expectClose(withDy.grad, { shape: plain.grad.shape, values: plain.grad.values.map((v) => 3 * v) });
    expect(tf.memory().numTensors).toBe(before);
  });

  it('leaves higher-order gradients unchanged (saved tensors are needed twice there)', async () => {
    const second = () => tf.grad((x: tf.Tensor) => tf.grad((t: tf.Tensor) => tf.sum(tf.mul(tf.tanh(t), tf.sin(t))))(x))(tf.tensor1d([0.3, -0.7, 1.1]));
    expectClose(await onBackend('wasm', second), await onBackend('cpu', second));
  });
});
