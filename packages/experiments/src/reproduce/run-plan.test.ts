import { describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import { configDifferences, plannedSeedRuns, unrunPlannedRuns } from './run-plan';

const config = parseExperimentConfig({
  name: 'run-plan-test',
  scale: 'smoke',
  seed: 3,
  dataset: { name: 'purchaseLike', size: 600 },
  partition: { preset: 'CCL4', maxPerRole: 50 },
  model: { name: 'mlp', options: { hidden: [8] } },
  training: { epochs: 2, batchSize: 16, lr: 0.1 },
  defenses: [{ name: 'none', label: 'undefended' }],
  attacks: ['loss'],
});

describe('plannedSeedRuns', () => {
  it('lists the runs ctx.runSeeds asks for, each tagged with its group', () => {
    const runs = plannedSeedRuns('g', config, 3);
    expect(runs.map((r) => [r.id, r.group, r.config.trainingSeed])).toEqual([
      ['g', 'g', undefined],
      ['g-seed-4', 'g', 4],
      ['g-seed-5', 'g', 5],
    ]);
    expect(() => plannedSeedRuns('g', config, 0)).toThrow(/k must be a positive integer, got 0/);
  });
});

describe('unrunPlannedRuns', () => {
  const plan = new Map([...plannedSeedRuns('g', config, 3), { id: 'solo', config }].map((r) => [r.id, r]));
  it('names the planned runs that were not asked for', () => {
    expect(unrunPlannedRuns(plan, new Map([['g', 'ran']]))).toEqual(['g-seed-4', 'g-seed-5', 'solo']);
    expect(
      unrunPlannedRuns(
        plan,
        new Map([
          ['g', 'ran'],
          ['g-seed-4', 'ran'],
          ['g-seed-5', 'ran'],
          ['solo', 'ran'],
        ]),
      ),
    ).toEqual([]);
  });
  it('excuses the later seeds of a group whose dataset was not available, not a lone run', () => {
    expect(unrunPlannedRuns(plan, new Map([['g', 'not run']]))).toEqual(['solo']);
  });
});

describe('configDifferences', () => {
  it('names the top-level keys that differ after defaults are filled in, ignoring where units train', async () => {
    expect(await configDifferences(config, { ...config })).toEqual([]);
    expect(await configDifferences(config, { ...config, workers: 2 })).toEqual([]);
    expect(await configDifferences(config, { ...config, training: { ...config.training, epochs: 3 }, seed: 4 })).toEqual(['seed', 'training']);
  });

  it("ignores how a defense's params were chosen (`search`), not the params", async () => {
    const search = { candidates: 25, onPrivateData: true, accounted: true, epsilon: 26.8 };
    const searched = { ...config, defenses: config.defenses.map((d) => ({ ...d, search })) };
    expect(await configDifferences(config, searched)).toEqual([]);
    const other = { ...searched, defenses: searched.defenses.map((d) => ({ ...d, label: 'renamed' })) };
    expect(await configDifferences(config, other)).toEqual(['defenses']);
  });
});
