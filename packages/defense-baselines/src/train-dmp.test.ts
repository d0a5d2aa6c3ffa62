import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { predictLogits, sgd, type LabeledData } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { distillationKlLoss } from './distillation-loss';
import { trainDmp } from './train-dmp';
import { tinyModel, tinySplits } from './test-utils/fixtures';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const options = (optimizer: ReturnType<typeof sgd>) => ({ epochs: 8, batchSize: 16, optimizer, progressBar: false, seed: 1 }) as const;

describe('trainDmp', () => {
  it('trains a teacher, distils it on the reference set only, and leaks nothing', async () => {
    const { members, other, dispose } = tinySplits();
    const optimizer = sgd({ lr: 0.1, momentum: 0.9 });
    let seed = 10;
    const studentOptimizer = sgd({ lr: 0.5, momentum: 0.9 });
    const before = tf.memory().numTensors;
    const { model, unprotected } = await trainDmp(() => tinyModel(seed++), members, other, {
      temperature: 2,
      unprotectedTraining: options(optimizer),
      protectedTraining: options(studentOptimizer),
    });
    // The student approaches the teacher on the reference set: its KL is below a fresh model's.
    const kl = (student: ReturnType<typeof tinyModel>) =>
      tf.tidy(() =>
        distillationKlLoss(predictLogits(student, other), predictLogits(unprotected, other), { temperature: 2, reduction: 'batchmean' }).arraySync(),
      );
    const fresh = tinyModel(99);
    expect(kl(model)).toBeLessThan(kl(fresh) * 0.5);
    fresh.dispose();
    model.dispose();
    unprotected.dispose();
    optimizer.dispose();
    studentOptimizer.dispose();
    expect(tf.memory().numTensors).toBe(before);
    dispose();
  });

  it('never reads the private data when the teacher is given (the protected model sees only the reference set)', async () => {
    const { members, other, dispose } = tinySplits();
    const teacher = tinyModel(20);
    const untouchable: LabeledData = {
      ...members,
      gather: () => {
        throw new Error('private data read');
      },
    };
    const { model } = await trainDmp(() => tinyModel(21), untouchable, other, {
      unprotected: teacher,
      unprotectedTraining: options(sgd({ lr: 0.1 })),
      protectedTraining: options(sgd({ lr: 0.1 })),
    });
    model.dispose();
    teacher.dispose();
    dispose();
  });

  it('rejects a reference set with other classes', async () => {
    const { members, dispose } = tinySplits();
    const other: LabeledData = { ...members, numClasses: 4 };
    await expect(
      trainDmp(() => tinyModel(), members, other, { unprotectedTraining: options(sgd({ lr: 0.1 })), protectedTraining: options(sgd({ lr: 0.1 })) }),
    ).rejects.toThrow(/trainDmp: reference must match privateData/);
    dispose();
  });
});
