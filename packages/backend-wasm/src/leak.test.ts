import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomValues, setupWasm } from './test-utils/backends';
import { convNetWithBn, initialValues, tanhMlp, type SmallModel } from './test-utils/small-models';
import type { WasmBackend } from './internals/wasm-backend';

interface Counts {
  tensors: number;
  dataIds: number;
  heapBytes: number;
}

function counts(): Counts {
  const backend = tf.backend() as unknown as WasmBackend & { numDataIds(): number };
  return { tensors: tf.memory().numTensors, dataIds: backend.numDataIds(), heapBytes: backend.wasm.HEAPU8.buffer.byteLength };
}

/** 20 SGD steps; returns the counts before, after warm-up (2 steps) and at the end. */
function train(model: SmallModel, xShape: number[], numClasses: number): Counts[] {
  const seen: Counts[] = [counts()];
  const init = initialValues(model, 300);
  const vars = tf.tidy(() =>
    Object.fromEntries(Object.entries(model.shapes).map(([k, s], i) => [k, tf.variable(tf.tensor(init[k]!, s), true, `leak_${xShape.length}_${i}`)])),
  );
  const x = tf.tensor(randomValues(tf.util.sizeFromShape(xShape), 301), xShape);
  const labels = tf.tidy(() =>
    tf.oneHot(
      tf.tensor1d(
        Array.from({ length: xShape[0]! }, (_, i) => i % numClasses),
        'int32',
      ),
      numClasses,
    ),
  );
  for (let step = 0; step < 20; step++) {
    tf.tidy(() => {
      const { grads } = tf.variableGrads(() => model.loss(vars, x, labels));
      for (const v of Object.values(vars)) v.assign(tf.sub(v, tf.mul(grads[v.name]!, 0.01)));
    });
    if (step === 1 || step === 19) seen.push(counts());
  }
  tf.dispose([...Object.values(vars), x, labels]);
  seen.push(counts());
  return seen;
}

describe('training on wasm leaks nothing', () => {
  beforeAll(setupWasm);

  for (const [name, model, xShape, numClasses] of [
    ['conv net with batch norm', convNetWithBn, [4, 9, 9, 3], 3],
    ['tanh MLP', tanhMlp, [6, 7], 3],
  ] as const) {
    it(`${name}: 20 steps keep tensors, backend data ids and the wasm heap constant`, () => {
      const [before, warm, last, after] = train(model, [...xShape], numClasses);
      expect(last!.tensors).toBe(warm!.tensors);
      expect(last!.dataIds).toBe(warm!.dataIds);
      expect(last!.heapBytes).toBe(warm!.heapBytes);
      expect(after!.tensors).toBe(before!.tensors);
      expect(after!.dataIds).toBe(before!.dataIds);
    });
  }
});
