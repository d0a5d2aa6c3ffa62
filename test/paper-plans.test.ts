import { MiaError } from '@mia/core';
import { parseExperimentConfig, type ExperimentConfig } from '@mia/experiments';
import { DirectoryArtifactStore } from '@mia/experiments';
import { isNotRun, seedRuns, type Reproduction, type ReproductionContext, type RunOutcome } from '@mia/experiments/reproduce';
import { reproductions as ccl } from '@mia/example-ccl';
import { reproductions as crl } from '@mia/example-crl';
import { reproductions as past } from '@mia/example-past';
import { reproductions as sam } from '@mia/example-sam';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `--scale paper` stays runnable where the data and a GPU-class backend are: every reproduction's
// paper-scale plan is walked without training (each run reports "not run"), and every config it asks
// for must be a valid run config (dataset, model, defense params, partition) at paper scale.
const dir = mkdtempSync(join(tmpdir(), 'mia-paper-plans-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function planContext(configs: ExperimentConfig[]): ReproductionContext {
  const ctx: ReproductionContext = {
    scale: 'paper',
    store: new DirectoryArtifactStore(join(dir, 'store')),
    log: () => undefined,
    async run(_id, config) {
      configs.push(parseExperimentConfig({ ...config, scale: 'paper' }, 'paper plan'));
      return { notRun: 'not run: paper-plan walk (nothing trains here)' };
    },
    async runSeeds(id, config, k): Promise<RunOutcome> {
      // Every seed's config is checked (the first seed's "not run" would stop the real runSeeds).
      const outcomes = [];
      for (const seedRun of seedRuns(id, config, k)) outcomes.push(await ctx.run(seedRun.id, seedRun.config));
      return outcomes.find(isNotRun) ?? outcomes[0]!;
    },
    async loadModel() {
      throw new MiaError('paper-plan walk: no trained models');
    },
  };
  return ctx;
}

describe('every reproduction at --scale paper', () => {
  // ccl-fig1 trains its own toy models in-process (no runner config): its plan is checked at smoke scale.
  for (const reproduction of ([...ccl, ...crl, ...past, ...sam] as Reproduction[]).filter((r) => r.name !== 'ccl-fig1')) {
    it(`${reproduction.name}: its paper-scale configs are valid and its tables come out "not run", not broken`, async () => {
      const configs: ExperimentConfig[] = [];
      const out = await reproduction.run(planContext(configs));
      expect(configs.length).toBeGreaterThan(0);
      for (const c of configs) expect(c.scale).toBe('paper');
      expect(out.tables.length + out.claims.length).toBeGreaterThan(0);
    });
  }
});
