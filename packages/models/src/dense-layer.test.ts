import * as tf from '@tensorflow/tfjs-core';
import { DENSE_BIAS, DENSE_BIAS_GRAD_INPUT } from '@mia/core';
import { registerDenseBiasReference, type DenseBiasReference } from '@mia/core/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAttackModel, type AttackModelKind } from './attack-model';
import type { ModelClassifier } from './model-classifier';
import { createMlp } from './mlp';
import { useCpu } from './test-utils/classifier-checks';

beforeAll(useCpu);

/** Kernel names run by `fn`, in order. */
function kernelsOf(fn: () => void): string[] {
  const seen: string[] = [];
  const engine = tf.engine() as unknown as { runKernelFunc(p: { kernelName: string }): unknown };
  const original = engine.runKernelFunc.bind(engine);
  engine.runKernelFunc = (p) => {
    seen.push(p.kernelName);
    return original(p);
  };
  try {
    fn();
  } finally {
    engine.runKernelFunc = original;
  }
  return seen;
}

/** One gradient step's kernels and the training-mode logits (copied out). */
function step(model: ModelClassifier, inputDim: number): { kernels: string[]; logits: Float32Array } {
  let logits: Float32Array = new Float32Array();
  const kernels = kernelsOf(() =>
    tf.tidy(() => {
      const x = tf.randomUniform([8, inputDim], -1, 1, 'float32', 5);
      const vars = model.trainableVariables as tf.Variable[];
      const { value } = tf.variableGrads(() => {
        const out = model.forward(x, { training: true, seed: 1 }).logits;
        logits = Float32Array.from(out.dataSync());
        return tf.sum(tf.square(out)) as tf.Scalar;
      }, vars);
      value.dataSync();
    }),
  );
  return { kernels, logits };
}

describe('dense layers run through denseBias, the activation in the same kernel', () => {
  let reference: DenseBiasReference | undefined;
  afterEach(() => {
    reference?.dispose();
    reference = undefined;
  });

  const cases: [string, () => ModelClassifier, number, number, string][] = [
    ['createMlp (tanh)', () => createMlp({ inputDim: 12, hidden: [10, 8], numClasses: 5, seed: 1 }), 12, 3, 'Tanh'],
    ['createMlp (relu)', () => createMlp({ inputDim: 12, hidden: [10, 8], numClasses: 5, seed: 1, activation: 'relu' }), 12, 3, 'Relu'],
    ...(['nn-rl', 'nn-mlh', 'nn-crl'] as AttackModelKind[]).map((kind): [string, () => ModelClassifier, number, number, string] => [
      `createAttackModel('${kind}')`,
      () => createAttackModel(kind, { inputDim: 8, seed: 2 }),
      8,
      kind === 'nn-rl' ? 2 : kind === 'nn-mlh' ? 3 : 4,
      'Relu',
    ]),
  ];

  for (const [name, make, inputDim, layers, activation] of cases) {
    it(`${name}: ${layers} dense kernels, no separate ${activation}, no input gradient for the first layer, the unfused values`, () => {
      expect.hasAssertions();
      const unfused = make();
      const before = step(unfused, inputDim);
      unfused.dispose();
      expect(before.kernels).toContain(activation);
      reference = registerDenseBiasReference();
      const model = make();
      const after = step(model, inputDim);
      model.dispose();
      expect(reference.calls[DENSE_BIAS]).toBe(layers);
      expect(reference.calls[DENSE_BIAS_GRAD_INPUT]).toBe(layers - 1);
      expect(after.kernels.filter((k) => k === activation || k === 'BatchMatMul')).toEqual([]);
      after.logits.forEach((v, i) => expect(v).toBeCloseTo(before.logits[i]!, 5));
    });
  }
});
