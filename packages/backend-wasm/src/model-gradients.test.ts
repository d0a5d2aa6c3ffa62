import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, randomValues, setupWasm } from './test-utils/backends';
import { convNetWithBn, initialValues, tanhMlp, type SmallModel } from './test-utils/small-models';

async function gradients(
  backendName: string,
  model: SmallModel,
  xShape: number[],
  numClasses: number,
): Promise<Record<string, { shape: number[]; values: Float32Array }>> {
  await tf.setBackend(backendName);
  const init = initialValues(model, 100);
  const params = Object.fromEntries(Object.entries(model.shapes).map(([k, s]) => [k, tf.tensor(init[k]!, s)]));
  const x = tf.tensor(randomValues(tf.util.sizeFromShape(xShape), 200), xShape);
  const labels = tf.oneHot(
    tf.tensor1d(
      Array.from({ length: xShape[0]! }, (_, i) => i % numClasses),
      'int32',
    ),
    numClasses,
  );
  const names = Object.keys(params);
  const grads = tf.grads((...ps: tf.Tensor[]) => model.loss(Object.fromEntries(names.map((n, i) => [n, ps[i]!])), x, labels))(names.map((n) => params[n]!));
  const out = Object.fromEntries(names.map((n, i) => [n, { shape: grads[i]!.shape, values: Float32Array.from(grads[i]!.dataSync()) }]));
  tf.dispose([...grads, ...Object.values(params), x, labels]);
  return out;
}

describe('whole-model gradients on wasm agree with cpu', () => {
  beforeAll(setupWasm);

  for (const [name, model, xShape, numClasses] of [
    ['conv net with batch norm, stride 2, 1×1 shortcut, max pool', convNetWithBn, [3, 9, 9, 3], 3],
    ['tanh MLP', tanhMlp, [5, 7], 3],
  ] as const) {
    it(name, async () => {
      const cpu = await gradients('cpu', model, [...xShape], numClasses);
      const wasm = await gradients('wasm', model, [...xShape], numClasses);
      expect(Object.keys(wasm)).toEqual(Object.keys(model.shapes));
      for (const key of Object.keys(cpu)) expectClose(wasm[key]!, cpu[key]!, 1e-4);
    });
  }
});
