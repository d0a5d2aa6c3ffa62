import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { parseExperimentConfig } from './parse-config';
import { plannedSizes, sizeWarnings } from './sizes';
import { runExperiment } from '../run/runner';

const dir = mkdtempSync(join(tmpdir(), 'mia-sizes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = (overrides: Record<string, unknown> = {}) => ({
  name: 'sizes',
  scale: 'smoke',
  dataset: { name: 'purchaseLike', size: 4000 },
  partition: { preset: 'CCL4', maxPerRole: 500 },
  model: { name: 'mlp', options: { hidden: [8] } },
  training: { epochs: 1, batchSize: 64, lr: 0.1 },
  defenses: [{ name: 'none' }],
  attacks: ['loss'],
  ...overrides,
});

const problems = (input: unknown): string[] => {
  try {
    parseExperimentConfig(input);
    return [];
  } catch (error) {
    return (error as Error).message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
  }
};

describe('implausible sizes', () => {
  it('plans the role sizes prepareData will cut: CCL4 quarters of dataset.size, then the cap; real data has its own size', () => {
    // CCL4 splits into four equal roles: 4000 / 4 = 1000 each, capped at 500.
    expect(plannedSizes(parseExperimentConfig(config()))).toEqual({
      examples: 4000,
      uncapped: { target_train: 1000, target_test: 1000, shadow_train: 1000, shadow_test: 1000 },
      roles: { target_train: 500, target_test: 500, shadow_train: 500, shadow_test: 500 },
    });
    expect(plannedSizes(parseExperimentConfig(config({ dataset: { name: 'cifar10', size: 100 } })))!.examples).toBe(60_000);
  });

  it('a batch larger than the training set is an error naming both sizes', () => {
    expect(problems(config({ training: { epochs: 1, batchSize: 10_000_000, lr: 0.1 } }))).toEqual([
      'training.batchSize: expected at most the 500 examples a model trains on (CCL4 target_train with maxPerRole 500, of 4000 examples), got 10000000',
    ]);
    expect(problems(config({ training: { epochs: 1, batchSize: 500, lr: 0.1 } }))).toEqual([]); // the whole set in one batch is allowed
    expect(problems(config({ partition: { preset: 'CCL4' }, training: { epochs: 1, batchSize: 1001, lr: 0.1 } }))).toEqual([
      'training.batchSize: expected at most the 1000 examples a model trains on (CCL4 target_train, of 4000 examples), got 1001',
    ]);
  });

  it('a validation slice larger than its pool is an error of the same pass', () => {
    expect(problems(config({ partition: { preset: 'CCL4', validation: 1000 } }))).toEqual([
      "partition.validation: expected fewer than the 1000 examples of CCL4's target_test role (dataset of 4000), got 1000",
    ]);
  });

  it('warns when maxPerRole caps nothing and when a real dataset is given a size', () => {
    expect(sizeWarnings(parseExperimentConfig(config()))).toEqual([]);
    expect(sizeWarnings(parseExperimentConfig(config({ partition: { preset: 'CCL4', maxPerRole: 100_000 } })))).toEqual([
      'partition.maxPerRole 100000 is more than any role of CCL4 has on 4000 examples (the largest has 1000), so it caps nothing: the models train on target_train 1000, shadow_train 1000; raise dataset.size for more',
    ]);
    expect(sizeWarnings(parseExperimentConfig(config({ dataset: { name: 'cifar10', size: 5000 }, partition: { preset: 'CCL4', maxPerRole: 500 } })))).toEqual([
      'dataset.size 5000 is ignored: cifar10 is real data with 60000 examples (only the stand-ins purchaseLike and texasLike take a size); use partition.maxPerRole to train on fewer',
    ]);
  });

  it('runExperiment prints the warnings before anything trains', async () => {
    const lines: string[] = [];
    const placement = {
      where: () => 'on the queue',
      train: vi.fn(async () => {
        lines.push('(training starts)');
        throw new Error('stop here');
      }),
    };
    await expect(
      runExperiment(parseExperimentConfig(config({ partition: { preset: 'CCL4', maxPerRole: 100_000 } })), {
        store: new DirectoryArtifactStore(dir),
        placement,
        onLog: (l) => lines.push(l),
      }),
    ).rejects.toThrow('stop here');
    expect(lines).toEqual([
      expect.stringMatching(/^warning: partition\.maxPerRole 100000 is more than any role of CCL4/),
      'models     0 of 2 in the cache; training 2 on the queue',
      '(training starts)',
    ]);
  });
});
