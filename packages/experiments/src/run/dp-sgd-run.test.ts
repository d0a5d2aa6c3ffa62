import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { epsilonOf } from '@mia/defense-dp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseExperimentConfig } from '../config/parse-config';
import { defineDefense } from '../defenses/definition';
import { dpSgdDefense, dpSgdSteps, type DpSgdDefenseOptions } from '../defenses/dp-sgd';
import { registerDefense } from '../defenses/registry';
import { epsilonSummary } from '../cli/commands';
import { markdownReport } from '../report/markdown-report';
import { htmlReport } from '../report/html-report';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { runExperiment } from './runner';

const dir = mkdtempSync(join(tmpdir(), 'mia-dp-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

// A deliberately broken DP training: DP-SGD with the noise silently off, whose accountant still
// reports the ε of the noise multiplier it claims.
const CLAIMED_SIGMA = 6;
registerDefense(
  defineDefense<DpSgdDefenseOptions>({
    name: 'dp-sgd-noise-off',
    description: 'DP-SGD with its noise silently off (test only)',
    schema: dpSgdDefense.schema,
    train: (ctx) =>
      dpSgdDefense.train({
        ...ctx,
        options: { ...ctx.options, noiseMultiplier: 0 },
        recordMetrics: (metrics) => {
          const privacy = metrics.privacy as { sampleRate: number; steps: number; delta: number };
          const claimed = epsilonOf({ sampleRate: privacy.sampleRate, noiseMultiplier: CLAIMED_SIGMA, steps: privacy.steps, delta: privacy.delta });
          ctx.recordMetrics?.({ privacy: { ...privacy, noiseMultiplier: CLAIMED_SIGMA, epsilon: claimed.epsilon, order: claimed.order } });
        },
      }),
  }),
);

// Tiny: 150 members of the Purchase stand-in's 100 classes, so that a model without noise memorises them.
const dp = { clipNorm: 1, delta: 1e-5, sampleRate: 0.2 };
const config = parseExperimentConfig({
  name: 'test-dp',
  scale: 'smoke',
  seed: 3,
  dataset: { name: 'purchaseLike', size: 1200 },
  partition: { preset: 'CCL4', maxPerRole: 150 },
  model: { name: 'mlp', options: { hidden: [32] } },
  training: { epochs: 10, batchSize: 32, lr: 2, momentum: 0 },
  defenses: [
    { name: 'dp-sgd', label: 'DP ε=1', params: { ...dp, targetEpsilon: 1 } },
    { name: 'dp-sgd-noise-off', label: 'DP noise off', params: { ...dp, targetEpsilon: 1 } },
    { name: 'dp-sgd', label: 'DP ε=1, own lr and epochs', params: { ...dp, targetEpsilon: 1, lr: 1, epochs: 20 } },
  ],
  attacks: ['loss', 'confidence'],
});

describe('dp-sgd in a run', () => {
  it('records the accountant (ε, δ) per row and flags the training whose attack proves more', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'cache'));
    const before = tf.memory().numTensors;
    const results = await runExperiment(config, { store });
    expect(tf.memory().numTensors).toBe(before);
    const [ok, broken, own] = results.rows;
    const { steps } = dpSgdSteps(150, 0.2, 10);
    expect(steps).toBe(50);
    // The params' epochs replace training.epochs: twice the steps at the same ε need more noise per step.
    expect(own!.privacy).toMatchObject({ steps: 100, targetEpsilon: 1 });
    expect(own!.privacy!.noiseMultiplier).toBeGreaterThan(ok!.privacy!.noiseMultiplier!);
    // σ from the accountant for the run's steps: ε just under the target.
    expect(ok!.privacy).toMatchObject({
      mechanism: 'dp-sgd',
      delta: 1e-5,
      steps,
      sampleRate: 0.2,
      clipNorm: 1,
      sampling: 'poisson',
      covered: true,
      targetEpsilon: 1,
    });
    expect(ok!.privacy!.epsilon).toBeGreaterThan(0.95);
    expect(ok!.privacy!.epsilon).toBeLessThanOrEqual(1);
    expect(ok!.privacy!.noiseMultiplier).toBeGreaterThan(1);
    expect(epsilonOf({ sampleRate: 0.2, noiseMultiplier: ok!.privacy!.noiseMultiplier!, steps, delta: 1e-5 }).epsilon).toBeCloseTo(ok!.privacy!.epsilon!, 10);
    // Both rows get the best attack's bound at their δ; only the broken one exceeds its accountant.
    for (const row of [ok!, broken!]) {
      expect(row.empiricalEpsilon!.delta).toBe(1e-5);
      expect(row.empiricalEpsilon!.confidence).toBe(0.95);
      expect(row.attacks.map((a) => a.epsilonLowerBound)).toHaveLength(2);
    }
    expect(ok!.empiricalEpsilon!.exceedsAccountant).toBe(false);
    expect(ok!.empiricalEpsilon!.epsilon).toBeLessThanOrEqual(ok!.privacy!.epsilon!);
    expect(broken!.privacy!.epsilon).toBeLessThan(1);
    expect(broken!.empiricalEpsilon!.epsilon).toBeGreaterThan(broken!.privacy!.epsilon!);
    expect(broken!.empiricalEpsilon!.exceedsAccountant).toBe(true);
    expect(broken!.trainAccuracy).toBeGreaterThan(ok!.trainAccuracy);

    // The flag: a run warning, the report's tables and the terminal summary.
    expect(results.warnings!.filter((w) => w.includes('broken DP'))).toEqual([
      expect.stringMatching(
        /^DP noise off: broken DP: its best attack \((loss|confidence)\) proves ε ≥ \d+\.\d\d at 95 % confidence .* above the accountant's ε = [01]\.\d\d \(δ = 0\.00001\)/,
      ),
    ]);
    const md = markdownReport(results);
    expect(md).toContain('## Differential privacy');
    expect(md).toMatch(
      /\| DP ε=1 \| [01]\.\d\d \| 0\.00001 \| [\d.]+ \| 1 \| 0\.2 \| 50 \| poisson \| [\d.]+ \| \d\.\d\d \((loss|confidence)\) \| consistent \|/,
    );
    expect(md).toMatch(/\| DP noise off \| [01]\.\d\d \| .* \| BROKEN: the attack proves more than the accountant's ε \|/);
    expect(md).toMatch(/\| DP noise off \|.*\| [01]\.\d\d \(δ 0\.00001\) \| \d\.\d\d \\?> DP ε: BROKEN \|/);
    const html = await htmlReport(results);
    expect(html).toContain('data-section="differential-privacy"');
    expect(html).toContain('BROKEN: the attack proves more than the accountant&#39;s ε');
    expect(epsilonSummary(broken!)).toMatch(/^ {2}DP ε [01]\.\d\d \(δ 0\.00001\) {2}ε ≥ \d\.\d\d {2}BROKEN DP$/);
    expect(epsilonSummary(ok!)).not.toContain('BROKEN');

    // Cached units keep their recorded privacy: a rerun reports the same row.
    const again = await runExperiment(config, { store });
    expect(again.rows.map((r) => r.cache)).toEqual([
      { target: 'hit', shadow: 'hit' },
      { target: 'hit', shadow: 'hit' },
      { target: 'hit', shadow: 'hit' },
    ]);
    expect(again.rows.map((r) => r.privacy)).toEqual(results.rows.map((r) => r.privacy));
    expect(again.rows.map((r) => r.empiricalEpsilon)).toEqual(results.rows.map((r) => r.empiricalEpsilon));
  }, 300_000);

  it('is seeded: the same config trains the same DP model twice', async () => {
    const one = { ...config, training: { ...config.training, epochs: 2 }, defenses: [config.defenses[0]!], attacks: [] };
    const a = await runExperiment(one, { store: new DirectoryArtifactStore(join(dir, 'a')) });
    const b = await runExperiment(one, { store: new DirectoryArtifactStore(join(dir, 'b')) });
    expect(a.rows[0]!.cache.target).toBe('miss');
    expect(b.rows[0]!.cache.target).toBe('miss');
    expect(b.rows[0]!.lossHistogram).toEqual(a.rows[0]!.lossHistogram);
    expect(b.rows[0]!.testAccuracy).toBe(a.rows[0]!.testAccuracy);
    expect(b.rows[0]!.privacy).toEqual(a.rows[0]!.privacy);
  }, 300_000);
});
