import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { createHash } from 'node:crypto';
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
      const w = model.variables.map((v) => Array.from(v.dataSync()));
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
    for (const v of attack.variables) v.assign(tf.zerosLike(v));
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

/** SHA-256 of the bytes of `variables`, in order. */
function weightsDigest(variables: readonly tf.Tensor[]): string {
  const hash = createHash('sha256');
  for (const v of variables) {
    const data = v.dataSync() as Float32Array;
    hash.update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }
  return hash.digest('hex');
}

/** A fixed `[n, d]` input: 2·sin(i + 1 + phase). */
const fixedInput = (n: number, d: number, phase = 0) =>
  tf.tensor2d(
    Float32Array.from({ length: n * d }, (_, i) => 2 * Math.sin(i + 1 + phase)),
    [n, d],
  );

// MemGuard's attack model before it was built by @mia/core's createAttackNetwork (Glorot init;
// computed with the former DenseNetwork, cpu backend): weights, predictions, the gradient memGuard
// follows, a short training and the defended logits.
describe('MemGuardAttackModel keeps its weights and outputs bit for bit', () => {
  it('the same weights, predictions and logit gradient for seed 7', () => {
    const model = new MemGuardAttackModel(4, 7);
    const logits = fixedInput(5, 4, 9);
    expect(weightsDigest(model.variables)).toBe('d8004e44bdf5f41ca1e50156efb9e16ee8cdab6f5c9a18b321541e35b04c1477');
    expect(tf.tidy(() => Array.from(model.predict(logits).dataSync()))).toEqual([
      0.5107889175415039, 0.5066066980361938, 0.5058847665786743, 0.5063090324401855, 0.506859540939331,
    ]);
    const gradient = tf.tidy(() =>
      Array.from(
        tf
          .grad((z: tf.Tensor) => tf.sum(model.logitOfSorted(tf.softmax(z) as tf.Tensor2D)))(logits)
          .dataSync(),
      ),
    );
    expect(gradient).toEqual([
      0.0011037422809749842, -0.0034398832358419895, 0.008147427812218666, -0.005811287090182304, 0.022442996501922607, -0.022234834730625153,
      0.0002107461914420128, -0.0004189076425973326, -0.00016158336075022817, 0.0018134976271539927, 0.0021017268300056458, -0.003753640688955784,
      0.022312583401799202, -0.005161890760064125, -0.0021041356958448887, -0.015046555548906326, 0.013202967122197151, -0.02290678769350052,
      0.00910183321684599, 0.0006019879365339875,
    ]);
    logits.dispose();
    model.dispose();
  });

  it('trainMemGuardAttackModel and memGuard give the same model and defended logits', () => {
    const [members, nonMembers, logits] = [fixedInput(12, 4, 3), fixedInput(12, 4, 77), fixedInput(5, 4, 9)];
    const model = trainMemGuardAttackModel(members, nonMembers, { epochs: 3, batchSize: 5, hidden: [16, 8], seed: 3 });
    expect(weightsDigest(model.variables)).toBe('d7be37304e329b110d9a5129223906d3af241c4768be816acc46c2e8a075fc69');
    expect(tf.tidy(() => Array.from(model.predict(logits).dataSync()))).toEqual([
      0.5070369243621826, 0.472076416015625, 0.4839610755443573, 0.4834853708744049, 0.48041003942489624,
    ]);
    const defended = memGuard(logits, model, { maxIterations: 30 });
    expect({ logits: Array.from(defended.logits.dataSync()), perturbed: Array.from(defended.perturbed) }).toEqual({
      logits: [
        -1.153560757637024, -2.0844528675079346, -0.8194678425788879, 0.7366468906402588, 2.4497809410095215, 0.5935487747192383, -0.42343977093696594,
        -1.8367012739181519, -1.5019744634628296, 0.29975441098213196, 1.8258905410766602, 1.6733112335205078, -0.01770261861383915, -1.6924408674240112,
        -1.8111567497253418, -0.26470351219177246, 1.5251169204711914, 1.9127519130706787, 0.5418115854263306, -1.3272677659988403,
      ],
      perturbed: [1, 1, 0, 0, 0],
    });
    tf.dispose([members, nonMembers, logits, defended.logits, defended.probabilities]);
    model.dispose();
  });
});
