import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { predictLogits, sgd, train } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { memGuard } from './mem-guard';
import { MemGuardAttackModel, trainMemGuardAttackModel } from './mem-guard-attack-model';
import { tinyModel, tinySplits } from './test-utils/fixtures';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('memGuard', () => {
  it('keeps every predicted label and moves the attack output across/toward 0.5, without leaks', async () => {
    const { members, other, dispose } = tinySplits({ members: 24, other: 24 });
    const target = tinyModel(30);
    const optimizer = sgd({ lr: 0.2, momentum: 0.9 });
    await train(target, members, { epochs: 30, batchSize: 8, optimizer, progressBar: false });
    optimizer.dispose();
    const memberLogits = predictLogits(target, members);
    const nonMemberLogits = predictLogits(target, other);
    const attack = trainMemGuardAttackModel(memberLogits, nonMemberLogits, { epochs: 150, batchSize: 48, lr: 0.01, seed: 1, hidden: [32, 16] });
    const logits = tf.concat([memberLogits, nonMemberLogits]) as tf.Tensor2D;
    const before = tf.memory().numTensors;
    const result = memGuard(logits, attack, { maxIterations: 60, maxC3: 1 });
    const h0 = tf.tidy(() => attack.predict(logits).arraySync());
    const h1 = tf.tidy(() => attack.predict(result.logits).arraySync());
    expect(tf.tidy(() => tf.argMax(result.logits, 1).arraySync())).toEqual(tf.tidy(() => tf.argMax(logits, 1).arraySync()));
    const perturbed = Array.from(result.perturbed.keys()).filter((i) => result.perturbed[i] === 1);
    expect(perturbed.length).toBeGreaterThan(logits.shape[0] / 2);
    for (const i of perturbed) expect(h1[i]! > 0.5).toBe(h0[i]! <= 0.5); // crossed 0.5
    const distance = (h: number[]) => h.reduce((s, v) => s + Math.abs(v - 0.5), 0) / h.length;
    expect(distance(h1)).toBeLessThan(distance(h0));
    // Rows that were not perturbed are returned unchanged.
    const rows0 = logits.arraySync();
    const rows1 = result.logits.arraySync();
    result.perturbed.forEach((p, i) => {
      if (p === 0) rows1[i]!.forEach((v, j) => expect(v).toBeCloseTo(rows0[i]![j]!, 5));
    });
    result.logits.dispose();
    result.probabilities.dispose();
    expect(tf.memory().numTensors).toBe(before + 0);
    for (const t of [logits, memberLogits, nonMemberLogits]) t.dispose();
    attack.dispose();
    target.dispose();
    dispose();
  });

  it('trains the defender attack model deterministically for a seed', () => {
    const members = tf.tensor2d([
      [3, 0, 0],
      [0, 4, 0],
      [0, 0, 5],
      [4, 1, 0],
    ]);
    const others = tf.tensor2d([
      [1, 0.5, 0],
      [0.2, 0.8, 0.5],
      [0, 0.3, 0.9],
      [0.5, 0.5, 0.4],
    ]);
    const weights = (seed: number) => {
      const model = trainMemGuardAttackModel(members, others, { epochs: 5, batchSize: 4, seed, hidden: [4] });
      const w = model.network.variables.map((v) => Array.from(v.dataSync()));
      model.dispose();
      return w;
    };
    const before = tf.memory().numTensors;
    expect(weights(1)).toEqual(weights(1));
    expect(weights(2)).not.toEqual(weights(1));
    expect(tf.memory().numTensors).toBe(before);
    expect(() => trainMemGuardAttackModel(members, tf.zeros([2, 4]) as tf.Tensor2D)).toThrow(
      /trainMemGuardAttackModel: memberLogits and nonMemberLogits must be non-empty \[n, C\] with the same C/,
    );
    members.dispose();
    others.dispose();
  });

  it('leaves queries unchanged when the attack already outputs 0.5', () => {
    const attack = new MemGuardAttackModel(3, 0, [8]);
    for (const v of attack.network.variables) v.assign(tf.zerosLike(v));
    const logits = tf.tensor2d([
      [2, 0, -1],
      [0.1, 0.3, 0.2],
    ]);
    const result = memGuard(logits, attack);
    expect(Array.from(result.perturbed)).toEqual([0, 0]);
    expect(result.logits.arraySync()).toEqual(logits.arraySync());
    expect(() => memGuard(tf.zeros([2, 4]) as tf.Tensor2D, attack)).toThrow(/memGuard: logits must have shape \[n, 3\], got \[2, 4\]/);
    // c3 grows ×10 per level up to maxC3: at 0 it would never grow, and a row that succeeds would be searched again forever.
    expect(() => memGuard(logits, attack, { c3: 0 })).toThrow('memGuard: c3 must be a number > 0, got 0');
    result.logits.dispose();
    result.probabilities.dispose();
    logits.dispose();
    attack.dispose();
  });
});
