import * as tf from '@tensorflow/tfjs-core';
import { seededRandom } from '@mia/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signalsFromLogits } from '../signals/signals-from-logits';
import { useCpu } from '../test-utils/setup';
import { auditModel } from './audit-model';

beforeAll(useCpu);

// Models as lookup tables: each example's input row ends with its index in the audit set, and a
// "model" returns its stored logits for that index. A model's training examples get +3 on the true
// class logit, so LiRA and RMIA must find the target's members from the reference models.
const [M, N, P, C, K] = [100, 100, 50, 4, 8];
const size = M + N + P;
const rng = seededRandom(7);
const labels = Int32Array.from({ length: size }, () => rng.int(C));
const base = Float32Array.from({ length: size * C }, () => rng.normal());
const logitsOf = (isIn: (i: number) => boolean) =>
  base.map((v, j) => v + (labels[Math.floor(j / C)] === j % C && isIn(Math.floor(j / C)) ? 3 : 0) + 0.3 * rng.normal());
const keep: Uint8Array[] = [];
for (let p = 0; p < K / 2; p++) {
  const perm = rng.permutation(size);
  const first = new Uint8Array(size);
  perm.subarray(0, size >> 1).forEach((i) => (first[i] = 1));
  keep.push(
    first,
    first.map((b) => 1 - b),
  );
}
const tables = [logitsOf((i) => i < M), ...keep.map((row) => logitsOf((i) => row[i] === 1))].map((t) => tf.tensor2d(t, [size, C]));
const lookup = (table: tf.Tensor2D) => (x: tf.Tensor) => tf.gather(table, tf.cast(tf.reshape(tf.slice(x, [0, C], [-1, 1]), [-1]), 'int32'));
const inputs = tf.concat([tf.zeros([size, C]), tf.reshape(tf.range(0, size), [size, 1])], 1);
const part = (start: number, end: number) => ({ x: tf.slice(inputs, [start, 0], [end - start, -1]), y: labels.slice(start, end) });
const data = { members: part(0, M), nonMembers: part(M, M + N), population: part(M + N, size) };
afterAll(() => [...tables, inputs, data.members.x, data.nonMembers.x, data.population.x].forEach((t) => t.dispose()));

describe('auditModel with reference models (LiRA, RMIA)', () => {
  it('runs LiRA offline and online and RMIA, which find the members; signals give the same numbers as models', async () => {
    const [target, ...references] = tables.map((t) => lookup(t as tf.Tensor2D));
    const options = { resamples: 50, statistics: ['loss' as const] };
    const before = tf.memory().numTensors;
    const report = await auditModel(target!, { ...data, references: { models: references, keep } }, options);
    expect(tf.memory().numTensors).toBe(before);
    expect(report.attacks.map((a) => a.name)).toEqual(['loss', 'lira-offline', 'lira-online', 'rmia-offline']);
    for (const name of ['lira-online', 'rmia-offline']) expect(report.attacks.find((a) => a.name === name)!.auc.estimate).toBeGreaterThan(0.9);
    const signals = tables.slice(1).map((t) => signalsFromLogits(t.dataSync(), labels, C));
    const fromSignals = await auditModel(target!, { ...data, references: { signals, keep } }, options);
    expect(fromSignals.attacks.map((a) => a.auc.estimate)).toEqual(report.attacks.map((a) => a.auc.estimate));
  });

  it('one OUT reference: LiRA offline only; bad references are rejected with a clear error', async () => {
    const [target, first] = tables.map((t) => lookup(t as tf.Tensor2D));
    const one = await auditModel(target!, { ...data, references: { models: [first!], keep: [new Uint8Array(size)] } }, { resamples: 20, statistics: ['loss'] });
    expect(one.attacks.map((a) => a.name)).toEqual(['loss', 'lira-offline']);
    await expect(auditModel(target!, { ...data, references: { models: [], keep: [] } })).rejects.toThrow(
      /data.references must be \{models, keep\} or \{signals, keep\} with at least one reference/,
    );
    await expect(auditModel(target!, { ...data, references: { models: [first!], keep: [keep[0]!.subarray(1)] } })).rejects.toThrow(
      /data.references.keep\[0\] must have one 0\/1 entry per audit example \(members, non-members, population: 250\), got Uint8Array\(249\)/,
    );
    await expect(auditModel(target!, { ...data, references: { models: [first!], keep: [keep[0]!] } })).rejects.toThrow(
      /every audit example needs a reference model that did not train on it \(keep 0\), got none for example \d+/,
    );
  });
});
