import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { crossEntropy, InvalidArgumentError, labeledData, ShapeMismatchError } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { computeSensitivity } from './compute-sensitivity';
import { privacySensitivity } from './privacy-sensitivity';
import { linearTwoLayer } from './test-utils/linear-two-layer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/*
 * Hand derivation (two-layer linear net z = (x·W1)·W2, CE loss, one member and one non-member):
 *   W1 = I₂, W2 = [[1, 0], [0, 0]];  member x_m = [1, 0], y_m = 0;  non-member x_n = [0, 1], y_n = 1.
 *   Member: h = [1, 0], z = [1, 0], p = [σ(1), 1 − σ(1)] = [0.7310586, 0.2689414], δ = p − e₀ = [−d, d], d = 0.2689414.
 *     ∂L_m/∂W2 = hᵀδ = [[−d, d], [0, 0]];  ∂L_m/∂h = δ·W2ᵀ = [−d, 0];  ∂L_m/∂W1 = x_mᵀ[−d, 0] = [[−d, 0], [0, 0]].
 *   Non-member: h = [0, 1], z = [0, 0], p = [½, ½], δ = p − e₁ = [½, −½].
 *     ∂L_n/∂W2 = [[0, 0], [½, −½]];  ∂L_n/∂h = [½, 0];  ∂L_n/∂W1 = [[0, 0], [½, 0]].
 *   |∇G| for W2 = [[d, d], [½, ½]], mean = (2d + 1)/4 = 0.3844707 → γ = [[0.6995108, 0.6995108], [1.3004892, 1.3004892]].
 *   |∇G| for W1 = [[d, 0], [½, 0]], mean = (d + ½)/4 = 0.1922354 → γ = [[1.3990216, 0], [2.6009784, 0]].
 *   L_m = −log σ(1) = 0.3132617, L_n = log 2 = 0.6931472, G = 0.3798855.
 */
const d = 0.2689414;
function handExample() {
  const model = linearTwoLayer(
    [
      [1, 0],
      [0, 1],
    ],
    [
      [1, 0],
      [0, 0],
    ],
  );
  const members = labeledData({ x: tf.tensor2d([[1, 0]]), y: [0], numClasses: 2 });
  const nonMembers = labeledData({ x: tf.tensor2d([[0, 1]]), y: [1], numClasses: 2 });
  return { model, members, nonMembers };
}

describe('privacySensitivity', () => {
  it('normalises |g_m − g_n| by its mean and floors the mean at float32 eps', () => {
    const gamma = privacySensitivity(
      tf.tensor2d([
        [-d, d],
        [0, 0],
      ]),
      tf.tensor2d([
        [0, 0],
        [0.5, -0.5],
      ]),
    );
    expect(Array.from(gamma.dataSync())).toEqual([0.6995108, 0.6995108, 1.3004892, 1.3004892].map((v) => expect.closeTo(v, 6)));
    const zero = privacySensitivity(tf.tensor1d([2, 3]), tf.tensor1d([2, 3]));
    expect(Array.from(zero.dataSync())).toEqual([0, 0]);
    // mean 1e-9 is below eps_f32 = 1.1920929e-7, so γ = gap / eps, not gap / mean (which would be 1).
    const tiny = privacySensitivity(tf.tensor1d([1e-9]), tf.tensor1d([0]));
    expect(tiny.dataSync()[0]).toBeCloseTo(1e-9 / 1.1920929e-7, 6);
    tf.dispose([gamma, zero, tiny]);
    expect(() => privacySensitivity(tf.zeros([2]), tf.zeros([3]))).toThrow(ShapeMismatchError);
  });
});

describe('computeSensitivity', () => {
  it('matches the hand-derived two-layer example', () => {
    const { model, members, nonMembers } = handExample();
    const r = computeSensitivity(model, members, nonMembers);
    expect(r.groups.map((g) => g.name)).toEqual(['fc1', 'fc2']);
    expect(Array.from(r.groups[0]!.gradientGap)).toEqual([d, 0, 0.5, 0].map((v) => expect.closeTo(v, 6)));
    expect(Array.from(r.groups[0]!.gamma)).toEqual([1.3990216, 0, 2.6009784, 0].map((v) => expect.closeTo(v, 5)));
    expect(Array.from(r.groups[1]!.gradientGap)).toEqual([d, d, 0.5, 0.5].map((v) => expect.closeTo(v, 6)));
    expect(Array.from(r.groups[1]!.gamma)).toEqual([0.6995108, 0.6995108, 1.3004892, 1.3004892].map((v) => expect.closeTo(v, 5)));
    expect(r.memberLoss).toBeCloseTo(0.3132617, 6);
    expect(r.nonMemberLoss).toBeCloseTo(0.6931472, 6);
    expect(r.lossGap).toBeCloseTo(0.3798855, 6);
    model.dispose();
  });

  it('equals |tf.grad| of the loss gap |L_m − L_n| on random data (batched accumulation, biases included)', () => {
    const members = syntheticClassification({ size: 50, numFeatures: 6, numClasses: 3, noise: 1.5, seed: 1 });
    const nonMembers = syntheticClassification({ size: 37, numFeatures: 6, numClasses: 3, noise: 1.5, seed: 2 });
    const model = tinyMlp({ inputDim: 6, hidden: [8], numClasses: 3, seed: 3 });
    const r = computeSensitivity(model, members, nonMembers, { batchSize: 16, includeBiases: true });
    const variables = r.groups
      .map((g) => model.parameterGroups.find((p) => g.name === p.name || g.name === `${p.name}.bias`)!)
      .map((p, k) => (r.groups[k]!.name.endsWith('.bias') ? p.bias! : p.weight));
    const all = (data: typeof members) => Int32Array.from({ length: data.size }, (_, i) => i);
    const { grads } = tf.variableGrads(() => {
      const loss = (data: typeof members) => crossEntropy(model.forward(data.gather(all(data)), { training: false }).logits, tf.tensor1d(data.y, 'int32'));
      return tf.abs(tf.sub(loss(members), loss(nonMembers))) as tf.Scalar;
    }, variables);
    expect(r.groups).toHaveLength(4);
    for (const [k, v] of variables.entries()) {
      const expected = Array.from(tf.abs(grads[v.name]!).dataSync());
      const got = r.groups[k]!.gradientGap;
      const mean = expected.reduce((a, b) => a + b, 0) / expected.length;
      for (let i = 0; i < expected.length; i++) {
        expect(got[i]).toBeCloseTo(expected[i]!, 5);
        expect(r.groups[k]!.gamma[i]).toBeCloseTo(expected[i]! / mean, 3);
      }
    }
    tf.dispose(Object.values(grads));
    model.dispose();
    members.dispose();
    nonMembers.dispose();
  });

  it('leaks no tensor and validates its input', () => {
    const { model, members, nonMembers } = handExample();
    const before = tf.memory().numTensors;
    computeSensitivity(model, members, nonMembers, { batchSize: 1, training: true });
    expect(tf.memory().numTensors).toBe(before);
    expect(() => computeSensitivity(model, members, nonMembers, { batchSize: 0 })).toThrow('computeSensitivity: batchSize must be a positive integer, got 0');
    const other = labeledData({ x: tf.zeros([1, 3]), y: [0], numClasses: 2 });
    expect(() => computeSensitivity(model, members, other)).toThrow(ShapeMismatchError);
    expect(() => computeSensitivity(model, members, nonMembers, { kinds: ['conv'] })).toThrow(InvalidArgumentError);
    model.dispose();
  });
});
