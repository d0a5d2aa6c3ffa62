import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { labeledData } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { nonMemberBatches } from './non-member-batches';
import { pastPenalty } from './past-penalty';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('pastPenalty', () => {
  const w = tf.tensor1d([-2, 0, 3]);
  const gamma = tf.tensor1d([0, 2, 10]);
  const values = (t: tf.Tensor) => {
    const out = Array.from(t.dataSync());
    t.dispose();
    return out;
  };

  it('computes λ·min(γ^α, clamp)·sign(w) and the L2 form by hand', () => {
    // γ^α = [0, 4, 100]; clamp 50 → [0, 4, 50]; × λ = 0.5 → [0, 2, 25].
    expect(values(pastPenalty(w, gamma, { lambda: 0.5, alpha: 2, clamp: 50 }))).toEqual([-0, 0, 25]);
    // L2: × 2w = [−4, 0, 6] → [0, 0, 150].
    expect(values(pastPenalty(w, gamma, { lambda: 0.5, alpha: 2, clamp: 50, norm: 'l2' }))).toEqual([-0, 0, 150]);
    // γ ≡ 1 (adaptive off): plain L1 λ·sign(w) and L2 2λw.
    expect(values(pastPenalty(w, undefined, { lambda: 0.5, alpha: 2 }))).toEqual([-0.5, 0, 0.5]);
    expect(values(pastPenalty(w, undefined, { lambda: 0.5, alpha: 2, norm: 'l2' }))).toEqual([-2, 0, 3]);
    // α = 0: γ^0 = 1 even for γ = 0 (torch.pow semantics), i.e. plain L1.
    expect(values(pastPenalty(w, gamma, { lambda: 0.5, alpha: 0 }))).toEqual([-0.5, 0, 0.5]);
  });

  it('creates only its result tensor', () => {
    const before = tf.memory().numTensors;
    values(pastPenalty(w, gamma, { lambda: 1, alpha: 2.5 }));
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('nonMemberBatches', () => {
  it('cycles shuffled passes with a smaller last batch, reproducibly', () => {
    const data = labeledData({ x: tf.zeros([12, 1]), y: new Array(12).fill(0), numClasses: 1 });
    const a = nonMemberBatches('t', data, 8, 7);
    const sizes = [0, 1, 2, 3].map((s) => a.indicesAt(s).length);
    expect(sizes).toEqual([8, 4, 8, 4]);
    for (const pass of [0, 2]) {
      const seen = [...a.indicesAt(pass), ...a.indicesAt(pass + 1)].sort((x, y) => x - y);
      expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => i));
    }
    expect(Array.from(a.indicesAt(2))).not.toEqual(Array.from(a.indicesAt(0)));
    expect(nonMemberBatches('t', data, 8, 7).indicesAt(3)).toEqual(a.indicesAt(3));
    expect(() => nonMemberBatches('t', data, 0, 7)).toThrow('t: batchSize must be a positive integer, got 0');
  });
});
