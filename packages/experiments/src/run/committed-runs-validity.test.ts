import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../test-utils/run-mia';
import { prepareData } from '../data/prepare-data';
import { planRun } from '../plan/plan-run';
import { attackNeedsShadow } from '../attacks/registry';
import { runDirValidity } from '../cli/audit-validity-lines';
import { diagnoseRun } from './audit-doctor';
import type { ExperimentResults } from './results';

/** Every committed run's results.json under examples/ (not node_modules). */
function committedResults(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return committedResults(path);
    return name === 'results.json' ? [path] : [];
  });
}

const files = committedResults(join(repositoryRoot, 'examples')).sort();
const runs = files.map((file) => ({ file: relative(repositoryRoot, file), results: JSON.parse(readFileSync(file, 'utf8')) as ExperimentResults }));

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('the committed runs raise no validity finding', () => {
  it('finds every committed run', () => {
    expect(runs.length).toBeGreaterThan(70);
  });

  it.each(runs.map((r) => [r.file, r.results] as const))('%s: the checks results.json allows', (_file, results) => {
    expect(runDirValidity(results).findings).toEqual([]);
  });

  // The checks that need the plan and the records (overlaps by index and content, references, the
  // validation slice, the blind baseline), once per dataset, partition and reference setup; the
  // stand-in datasets only (the real ones are not generated here). Runs that share them give the same answer.
  const distinct = new Map<string, (typeof runs)[number]>();
  for (const run of runs) {
    const c = run.results.config;
    if (run.results.dataset.source !== 'stand-in') continue;
    const key = JSON.stringify([
      c.dataset,
      c.partition,
      c.seed,
      c.references,
      c.attacks,
      c.shadowModels,
      c.training.checkpoint,
      run.results.rows.some((r) => r.defense === 'none') && run.results.rows.length > 1,
    ]);
    if (!distinct.has(key)) distinct.set(key, run);
  }
  it.each([...distinct.values()].map((r) => [r.file, r.results] as const))(
    '%s: every check on its plan, and its blind baseline',
    async (_file, results) => {
      const data = await prepareData(results.config);
      const plan = planRun(results.config, data, attackNeedsShadow);
      const doctor = diagnoseRun(plan, results.rows, [], undefined);
      // No distribution-shift finding among them: the baseline is not above chance at 99 %.
      expect(doctor.findings).toEqual([]);
      expect(doctor.baseline!.auc.estimate).toBeLessThan(0.53);
    },
    120_000,
  );
});
