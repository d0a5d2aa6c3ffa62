import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, seededRandom } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useCpu } from '../test-utils/setup';
import { boundaryDistanceAttack, boundaryDistances, createAttackNetwork, labelOracle, signalsFromLogits, type LabelOracle, type ModelSignals } from '../index';

beforeAll(useCpu);

/** A 2-class linear classifier in d dimensions: class 1 iff w·x + b > 0. Its boundary distance is |w·x + b| / ‖w‖. */
function linear(w: number[], b: number): { oracle: LabelOracle; rows: () => number; distance: (x: number[]) => number } {
  let rows = 0;
  const norm = Math.hypot(...w);
  return {
    oracle: (x) => {
      const v = x.dataSync();
      const d = w.length;
      rows += x.shape[0]!;
      return Int32Array.from({ length: x.shape[0]! }, (_, i) => (w.reduce((a, wj, j) => a + wj * v[i * d + j]!, b) > 0 ? 1 : 0));
    },
    rows: () => rows,
    distance: (x) => Math.abs(w.reduce((a, wj, j) => a + wj * x[j]!, b)) / norm,
  };
}

const w = [1, -2, 0.5, 1];
const points = [
  [0.6, 0.1, 0.5, 0.2],
  [0.2, 0.9, 0.1, 0.3],
  [0.9, 0.2, 0.8, 0.7],
  [0.5, 0.5, 0.5, 0.5],
];
const data = () => {
  const model = linear(w, 0.1);
  const x = tf.tensor2d(points);
  const y = points.map((p) => (w.reduce((a, wj, j) => a + wj * p[j]!, 0.1) > 0 ? 1 : 0));
  return { model, x, y };
};

describe('boundaryDistances', () => {
  it('finds the exact distance to a linear boundary (hand-computed |w·x + b| / ‖w‖) within 2 % at 1000 queries', async () => {
    const { model, x, y } = data();
    const out = await boundaryDistances(model.oracle, { x, y }, { budget: 1000, clipMin: -3, clipMax: 3, seed: 1 });
    points.forEach((p, i) => {
      expect(out.resolved[i]).toBe(1);
      expect(Math.abs(out.distance[i]! - model.distance(p)) / model.distance(p)).toBeLessThan(0.02);
      // Every kept point is of the other class: never closer than the true distance.
      expect(out.distance[i]!).toBeGreaterThanOrEqual(model.distance(p) * (1 - 1e-6));
    });
    x.dispose();
  });

  it('in 200 dimensions, ranks records by their true distance at 100 queries (Spearman > 0.9), an upper bound of each', async () => {
    const random = seededRandom(11);
    const d = 200;
    const weights = Array.from({ length: d }, () => random.normal());
    const model = linear(weights, -weights.reduce((a, v) => a + v * 0.5, 0));
    const rows = Array.from({ length: 30 }, () => Array.from({ length: d }, () => random.next()));
    const x = tf.tensor2d(rows);
    const labels = Array.from(await model.oracle(x));
    const out = await boundaryDistances(model.oracle, { x, y: labels }, { budget: 100, seed: 2 });
    const truth = rows.map(model.distance);
    truth.forEach((t, i) => expect(out.distance[i]!).toBeGreaterThanOrEqual(t * (1 - 1e-6)));
    const rank = (v: ArrayLike<number>) => {
      const order = Array.from(v, (value, i) => [value, i] as const).sort((a, b) => a[0] - b[0]);
      const r = new Array<number>(v.length);
      order.forEach(([, i], k) => (r[i] = k));
      return r;
    };
    const [a, b] = [rank(truth), rank(out.distance)];
    const m = (truth.length - 1) / 2;
    const cov = a.reduce((acc, v, i) => acc + (v - m) * (b[i]! - m), 0);
    const spearman = cov / a.reduce((acc, v) => acc + (v - m) ** 2, 0);
    expect(spearman).toBeGreaterThan(0.9);
    x.dispose();
  });

  it('never sends more than the budget per record, and counts every row it sends', async () => {
    for (const budget of [1, 2, 5, 10, 37, 100, 300]) {
      const { model, x, y } = data();
      const out = await boundaryDistances(model.oracle, { x, y }, { budget, clipMin: -3, clipMax: 3, parallel: 3, batchSize: 7 });
      out.queries.forEach((q) => expect(q).toBeLessThanOrEqual(budget));
      expect(out.queries.reduce((a, q) => a + q, 0)).toBe(model.rows());
      if (budget >= 100) out.queries.forEach((q) => expect(q).toBeGreaterThan(budget - 30)); // the search uses what it is given
      x.dispose();
    }
  });

  it('a misclassified record has distance 0 after one query; a budget of 1 resolves nothing else', async () => {
    const { model, x, y } = data();
    // By hand, w·x + b = 0.95, −1.15, 1.7, 0.35: classes [1, 0, 1, 1]; label every record wrongly.
    expect(y).toEqual([1, 0, 1, 1]);
    const wrong = await boundaryDistances(model.oracle, { x, y: [0, 1, 0, 0] }, { budget: 50, clipMin: -3, clipMax: 3 });
    expect(Array.from(wrong.distance)).toEqual([0, 0, 0, 0]);
    expect(Array.from(wrong.queries)).toEqual([1, 1, 1, 1]);
    const one = await boundaryDistances(model.oracle, { x, y }, { budget: 1 });
    expect(Array.from(one.queries)).toEqual([1, 1, 1, 1]);
    expect(Array.from(one.resolved)).toEqual([0, 0, 0, 0]);
    x.dispose();
  });

  it('is seeded: the same seed gives the same distances whatever the batching, another seed others', async () => {
    const run = async (seed: number, parallel: number, batchSize: number) => {
      const { model, x, y } = data();
      const out = await boundaryDistances(model.oracle, { x, y }, { budget: 200, clipMin: -3, clipMax: 3, seed, parallel, batchSize });
      x.dispose();
      return Array.from(out.distance);
    };
    const a = await run(4, 16, 256);
    expect(await run(4, 1, 1)).toEqual(a);
    expect(await run(4, 2, 33)).toEqual(a);
    expect(await run(5, 16, 256)).not.toEqual(a);
  });

  it('with labelOracle on a tfjs model: leaves no tensor behind', async () => {
    const net = createAttackNetwork({ inputDim: 4, layers: [{ units: 8 }, { units: 2 }], seed: 1 });
    const x = tf.tensor2d(points);
    const before = tf.memory().numTensors;
    const oracle = labelOracle(net, { batchSize: 16 });
    const y = Array.from(await oracle(x));
    const out = await boundaryDistances(oracle, { x, y }, { budget: 60 });
    expect(tf.memory().numTensors).toBe(before);
    expect(out.distance.every((d) => d >= 0 && Number.isFinite(d))).toBe(true);
    net.dispose();
    x.dispose();
  });

  it('validates every param before the first query, and checks the oracle’s answers', async () => {
    const { model, x, y } = data();
    await expect(boundaryDistances(model.oracle, { x, y }, { budget: 0 })).rejects.toThrow(/boundaryDistances: budget must be an integer ≥ 1, got 0/);
    await expect(boundaryDistances(model.oracle, { x, y }, { budjet: 10 } as never)).rejects.toThrow(/budjet must be one of the options budget/);
    await expect(boundaryDistances(model.oracle, { x, y }, { clipMin: 1, clipMax: 0 })).rejects.toThrow(/clipMin must be below clipMax \(0\), got 1/);
    await expect(boundaryDistances(model.oracle, { x, y: [1, 0] })).rejects.toThrow(/data.y must hold 4 labels/);
    await expect(boundaryDistances(model.oracle, { x, y: [1, 0, -1, 0] })).rejects.toThrow(/data.y\[2\] must be a non-negative integer label, got -1/);
    expect(model.rows()).toBe(0);
    await expect(boundaryDistances(() => new Int32Array(1), { x, y })).rejects.toThrow(InvalidArgumentError);
    await expect(boundaryDistances(() => new Int32Array(1), { x, y })).rejects.toThrow(/the oracle must return one label per row \(4\)/);
    x.dispose();
  });
});

describe('boundaryDistanceAttack', () => {
  const withDistance = (distance: number[]): ModelSignals => ({
    ...signalsFromLogits(
      distance.flatMap(() => [0, 1]),
      distance.map(() => 1),
      2,
    ),
    boundaryDistance: Float64Array.from(distance),
  });
  it('scores the distance and fits one global threshold on the shadow signals', async () => {
    const attack = boundaryDistanceAttack();
    await attack.prepare({ members: withDistance([0.9, 1.2, 0.8]), nonMembers: withDistance([0.1, 0.3, 0.2]) });
    const target = withDistance([0.05, 0.5, 1]);
    expect(Array.from(attack.score(target))).toEqual([0.05, 0.5, 1]);
    // Any threshold in (0.3, 0.8] separates the shadow sides; the target's 0.05 is below it, 1 above.
    const decisions = attack.decide!(target);
    expect(decisions[0]).toBe(0);
    expect(decisions[2]).toBe(1);
    expect(attack.name).toBe('boundary-distance');
  });

  it('names the missing field', async () => {
    const attack = boundaryDistanceAttack({ name: 'bd' });
    const bare = signalsFromLogits([0, 1], [1], 2);
    await expect(attack.prepare({ members: bare, nonMembers: bare })).rejects.toThrow(/bd: the signals have no boundaryDistance/);
  });
});
