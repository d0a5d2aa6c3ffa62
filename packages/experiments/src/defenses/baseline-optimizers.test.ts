import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { seededRandom, subsetData } from '@mia/core';
import { purchaseLike } from '@mia/data';
import { createMlp } from '@mia/models';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_DEFENSES } from './builtin';
import { parseExperimentConfig } from '../config/parse-config';
import type { DefenseTrainContext } from './definition';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const data = purchaseLike({ size: 240, seed: 3, overrides: { numClasses: 4, groups: 2 } });
const order = seededRandom(1).permutation(data.size);
const members = subsetData(data, order.subarray(0, 120));
const inference = subsetData(data, order.subarray(120, 240));

/** Relative weight change of a defense's training with the run's `lr` (same model, same seed). */
async function relativeChange(name: string, params: Record<string, unknown>, lr: number): Promise<number> {
  const config = parseExperimentConfig({
    name: 'opt',
    dataset: { name: 'purchaseLike' },
    partition: { preset: 'CCL5' },
    model: { name: 'mlp' },
    training: { epochs: 6, batchSize: 40, lr, schedule: { type: 'cosine' } },
    defenses: [{ name, params }],
  });
  const definition = BUILTIN_DEFENSES.find((d) => d.name === name)!;
  const model = createMlp({ inputDim: 600, hidden: [16], numClasses: 4, seed: 5 });
  const before = model.trainableVariables.map((v) => Array.from(v.dataSync()));
  const ctx = {
    model,
    members,
    inference,
    training: config.training,
    options: definition.schema.parse(params, name),
    seed: 2,
    label: name,
    createModel: () => createMlp({ inputDim: 600, hidden: [16], numClasses: 4, seed: 6 }),
    trainBase: () => Promise.resolve(),
  } as unknown as DefenseTrainContext<never>;
  const tensors = tf.memory().numTensors;
  await definition.train(ctx);
  expect(tf.memory().numTensors).toBe(tensors);
  let moved = 0;
  let norm = 0;
  model.trainableVariables.forEach((v, i) =>
    v.dataSync().forEach((w, j) => {
      moved += (w - before[i]![j]!) ** 2;
      norm += before[i]![j]! ** 2;
    }),
  );
  model.dispose();
  return Math.sqrt(moved / norm);
}

describe('mixup-mmd uses the run optimizer (as advreg and the plugin defenses do)', () => {
  // MLHospital's fixed SGD 0.01 + cosine left a 20-epoch cpu run of Mixup+MMD untrained (train
  // accuracy 8 % where the undefended model reaches 99 %), so every λ_mmd gave the same model.
  it('the run LR drives the target: a ~zero LR leaves it in place, 0.1 moves it', async () => {
    const params = { lambdaMmd: 1, gapThreshold: 0 };
    expect(await relativeChange('mixup-mmd', params, 1e-9)).toBeLessThan(1e-5);
    expect(await relativeChange('mixup-mmd', params, 0.1)).toBeGreaterThan(1e-2);
  }, 120_000);
});
