import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import { writeReport } from '../report/write-report';
import { gateCommand } from '../cli/gate';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { runExperiment } from './runner';

// A seeded bug for the audit to catch: DP-SGD whose noise is silently 10× smaller than the σ its
// accountant reports (the plugin trains with σ/10; `privacy()` reports the ε of σ). Off by default.
const fault = vi.hoisted(() => ({ noiseScale: 1 }));
vi.mock('@mia/defense-dp', async (importOriginal) => {
  const dp = await importOriginal<typeof import('@mia/defense-dp')>();
  return {
    ...dp,
    dpSgdPlugin: (options: Parameters<typeof dp.dpSgdPlugin>[0]) => {
      const claimed = options.noiseMultiplier;
      const inner = dp.dpSgdPlugin({ ...options, noiseMultiplier: claimed * fault.noiseScale });
      if (fault.noiseScale === 1) return inner;
      return Object.assign(Object.create(inner) as typeof inner, {
        privacy: (delta: number) => {
          const p = inner.privacy(delta);
          const e = dp.epsilonOf({ sampleRate: p.sampleRate, noiseMultiplier: claimed, steps: p.steps, delta });
          return { ...p, noiseMultiplier: claimed, epsilon: e.epsilon, order: e.order };
        },
      });
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'mia-dp-audit-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await tf.setBackend('cpu');
});

const config = parseExperimentConfig({
  name: 'test-dp-audit',
  scale: 'smoke',
  seed: 5,
  dataset: { name: 'purchaseLike', size: 1200 },
  partition: { preset: 'CCL4', maxPerRole: 150 },
  model: { name: 'mlp', options: { hidden: [16] } },
  training: { epochs: 4, batchSize: 32, lr: 1, momentum: 0 },
  defenses: [{ name: 'dp-sgd', label: 'DP ε=2', params: { clipNorm: 1, delta: 1e-5, sampleRate: 0.2, targetEpsilon: 2, audit: { canaries: 300 } } }],
  attacks: ['loss'],
});

describe('mia run with a dp-sgd row and audit: { canaries }', () => {
  it('reports the canary bound beside the accountant ε; the correct DP-SGD passes mia gate --dp, a seeded bug fails it', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      fault.noiseScale = 1;
      const ok = await runExperiment(config, { store: new DirectoryArtifactStore(join(dir, 'cache-ok')) });
      const audit = ok.rows[0]!.privacy!.audit!;
      expect(audit).toMatchObject({ canaries: 300, decidedBy: 'gdp', broken: false, confidence: 0.95, guesses: { planned: 120, made: 120 } });
      expect(audit.empiricalEpsilon!).toBeLessThan(ok.rows[0]!.privacy!.epsilon!);
      expect(audit.message).toMatch(/canar/);
      await writeReport(ok, join(dir, 'ok'));
      expect(readFileSync(join(dir, 'ok', 'report.md'), 'utf8')).toContain('ε ≥ (canary audit)');
      expect(await gateCommand(join(dir, 'ok'), { dp: true })).toBe(0);

      fault.noiseScale = 0.1;
      const bug = await runExperiment(config, { store: new DirectoryArtifactStore(join(dir, 'cache-bug')) });
      const caught = bug.rows[0]!.privacy!.audit!;
      // The accountant still reports the ε of the σ it was told; the canaries see σ/10.
      expect(bug.rows[0]!.privacy!.epsilon).toBeCloseTo(ok.rows[0]!.privacy!.epsilon!, 6);
      expect(caught.broken).toBe(true);
      expect(caught.empiricalEpsilon!).toBeGreaterThan(bug.rows[0]!.privacy!.epsilon!);
      await writeReport(bug, join(dir, 'bug'));
      expect(readFileSync(join(dir, 'bug', 'report.md'), 'utf8')).toContain('BROKEN: the canary audit proves more');
      expect(await gateCommand(join(dir, 'bug'), { dp: true })).toBe(1);
      expect(write.mock.calls.map((c) => String(c[0])).join('')).toMatch(/FAIL .*bug: the DP claim is broken at 95 % confidence: DP ε=2: canary ε ≥ /);
    } finally {
      write.mockRestore();
      fault.noiseScale = 1;
    }
  }, 120_000);

  it('does not change the model: the target trained with canaries is the one trained without them', async () => {
    const plain = parseExperimentConfig({ ...config, defenses: [{ ...config.defenses[0]!, params: { ...config.defenses[0]!.params, audit: undefined } }] });
    const store = new DirectoryArtifactStore(join(dir, 'cache-plain'));
    const [withCanaries, without] = [await runExperiment(config, { store }), await runExperiment(plain, { store })];
    expect(without.rows[0]!.privacy!.audit).toBeUndefined();
    expect(withCanaries.rows[0]!.attacks.map((a) => a.auc)).toEqual(without.rows[0]!.attacks.map((a) => a.auc));
    expect(withCanaries.rows[0]!.testAccuracy).toBe(without.rows[0]!.testAccuracy);
  }, 120_000);
});
