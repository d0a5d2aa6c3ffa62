import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { parseExperimentConfig } from '@mia/experiments';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { cclPlugin } from '@mia/defense-ccl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meanAndVariance, memberLossDynamics, type MemberLossDynamicsOptions } from './member-loss-dynamics';

const data = syntheticClassification({ size: 96, numFeatures: 8, numClasses: 3, seed: 5 });
const members = Array.from({ length: 48 }, (_, i) => i);
const training = parseExperimentConfig({
  name: 't',
  dataset: { name: 'purchaseLike' },
  partition: {},
  model: { name: 'mlp' },
  training: { epochs: 3, batchSize: 16, lr: 0.1 },
  defenses: [{ name: 'none' }],
}).training;
const options: MemberLossDynamicsOptions = {
  createModel: () => tinyMlp({ inputDim: 8, hidden: [16], numClasses: 3, seed: 1 }),
  training,
  seed: 2,
  variants: [{ label: 'CE' }, { label: 'CCQL', plugin: () => cclPlugin({ alpha: 0.5, concave: 'quadratic' }) }],
};

beforeAll(async () => {
  await tf.setBackend('cpu');
});
afterAll(() => data.dispose());

describe('meanAndVariance', () => {
  it('gives the population variance (ddof 0): [1, 2, 3, 4] → mean 2.5, variance 1.25 (np.var)', () => {
    expect(meanAndVariance([1, 2, 3, 4])).toEqual({ mean: 2.5, variance: 1.25 });
    expect(() => meanAndVariance([])).toThrow(/meanAndVariance: values must not be empty, got 0 values/);
  });
});

describe('memberLossDynamics', () => {
  it('records every epoch per variant, is seeded, and leaks no tensor', async () => {
    const before = tf.memory().numTensors;
    const a = await memberLossDynamics(data, members, options);
    expect(tf.memory().numTensors).toBe(before);
    expect([...a.keys()]).toEqual(['CE', 'CCQL']);
    for (const stats of a.values()) {
      expect(stats.map((s) => s.epoch)).toEqual([1, 2, 3]);
      for (const s of stats) expect(s.variance).toBeGreaterThan(0);
    }
    // Training on cross-entropy lowers the members' mean cross-entropy.
    expect(a.get('CE')![2]!.mean).toBeLessThan(a.get('CE')![0]!.mean);
    // A different objective gives different dynamics.
    expect(a.get('CCQL')![2]!.mean).not.toBe(a.get('CE')![2]!.mean);
    const b = await memberLossDynamics(data, members, options);
    expect(b).toEqual(a);
  });

  it('rejects empty members and repeated labels with clear errors', async () => {
    await expect(memberLossDynamics(data, [], options)).rejects.toThrow(/memberLossDynamics: members must not be empty, got 0 indices/);
    await expect(memberLossDynamics(data, members, { ...options, variants: [{ label: 'CE' }, { label: 'CE' }] })).rejects.toThrow(
      /variant labels must be distinct, got \["CE","CE"\]/,
    );
  });
});
