import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, MiaError, sgd } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { auditCanaries } from '@mia/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epsilonOf } from '../accountant/epsilon-of';
import type { DpSgdFaults } from '../dp-sgd/dp-sgd-faults';
import { assertDpClaimHolds, dpAuditMatchers, DpClaimBrokenError } from './assert-dp-claim-holds';
import { auditCanaryScores } from './audit-canary-scores';
import { auditDpTraining, runDpTrainingAudit, type DpTrainingAudit } from './audit-dp-training';

beforeAll(async () => {
  await tf.setBackend('cpu');
});
expect.extend(dpAuditMatchers);
declare module 'vitest' {
  interface Assertion {
    toHoldDpClaim(): void;
  }
}

const data = syntheticClassification({ size: 200, numFeatures: 5, numClasses: 3, seed: 1 });
afterAll(() => data.dispose());
// 200 canaries, σ = 3, q = 0.25, 12 steps: the accountant claims ε ≈ 1.42 at δ = 1e-5.
const setup: DpTrainingAudit = {
  model: () => tinyMlp({ inputDim: 5, hidden: [8], numClasses: 3, seed: 2 }),
  data,
  dpSgd: { sampleRate: 0.25, clipNorm: 1, noiseMultiplier: 3 },
  train: { epochs: 3, optimizer: sgd({ lr: 0.5 }), seed: 4, progressBar: false },
  canaries: { count: 200 },
  delta: 1e-5,
};

describe('auditDpTraining', () => {
  it('passes a correct DP-SGD and reports every number and choice; the same seed gives the same audit, and nothing leaks', async () => {
    const tensors = tf.memory().numTensors;
    const result = await auditDpTraining(setup);
    expect(tf.memory().numTensors).toBe(tensors);
    expect(result.broken).toBe(false);
    expect(result).toHoldDpClaim();
    expect(() => assertDpClaimHolds(result)).not.toThrow();
    const want = epsilonOf({ sampleRate: 0.25, noiseMultiplier: 3, steps: 12, delta: 1e-5 }).epsilon;
    expect(result.claimedEpsilon).toBe(want);
    expect(result.privacy).toMatchObject({ steps: 12, sampleRate: 0.25, noiseMultiplier: 3 });
    expect(result.canaries).toMatchObject({ count: 200, kind: 'gradient' });
    expect(result.audit.guesses).toMatchObject({ canaries: 200, positive: 40, negative: 40, guesses: 80 });
    expect(result.audit).toEqual(auditCanaries(result.scores, result.inclusion, { delta: 1e-5 }));
    expect(result.message).toMatch(
      /^consistent: a one-run audit proves ε ≥ \d\.\d\d \(Gaussian-DP bound, μ ≥ [\d.]+\) at 95 % confidence, within the claimed ε = 1\.42/,
    );
    expect(result.message).toContain('200 white-box gradient canaries (dedicated coordinates)');
    expect(result.message).toContain('"in" for the 40 highest scores, "out" for the 40 lowest');
    const again = await auditDpTraining(setup);
    expect(Array.from(again.scores)).toEqual(Array.from(result.scores));
    expect(again.audit).toEqual(result.audit);
  });

  it.each<[string, DpSgdFaults]>([
    ['noise σ silently × 0.1', { noiseScale: 0.1 }],
    ['clipping skipped', { skipClipping: true }],
    ['noise not scaled with the batch drawn', { noiseNotScaledWithBatch: true }],
  ])('flags a training with a seeded bug (%s) as broken, with the numbers', async (_, faults) => {
    const result = await runDpTrainingAudit(setup, faults);
    expect(result.broken).toBe(true);
    expect(result.empiricalEpsilon).toBe(result.audit.gdp.epsilon);
    expect(result.empiricalEpsilon).toBeGreaterThan(result.claimedEpsilon);
    expect(result).not.toHoldDpClaim();
    expect(() => assertDpClaimHolds(result)).toThrow(DpClaimBrokenError);
    expect(() => assertDpClaimHolds(result)).toThrow(/^broken DP claim: a one-run audit proves ε ≥ [\d.]+ .* above the claimed ε = 1\.42 \(δ = 0\.00001\)/);
    expect(MiaError.isInstance(new DpClaimBrokenError('x'))).toBe(true);
  });

  it('reports the sample rate the accountant was told, so a wrong rate shows in the claim', async () => {
    const result = await runDpTrainingAudit(setup, { accountedSampleRate: 0.025 });
    expect(result.privacy.sampleRate).toBe(0.025);
    expect(result.claimedEpsilon).toBe(epsilonOf({ sampleRate: 0.025, noiseMultiplier: 3, steps: 12, delta: 1e-5 }).epsilon);
  });

  it('with input canaries, trains on the data plus the included canaries and scores them by their loss', async () => {
    const result = await auditDpTraining({ ...setup, canaries: { count: 100, kind: 'input', seed: 5 } });
    expect(result.canaries).toEqual({ count: 100, kind: 'input', seed: 5 });
    expect(result.message).toContain('100 input canaries (random)');
    // Batches follow the augmented data: round(q · (200 + included)) per step, 3 epochs.
    const included = result.inclusion.reduce((a, b) => a + b, 0);
    const batch = Math.round(0.25 * (200 + included));
    expect(result.privacy.steps).toBe(3 * Math.ceil((200 + included) / batch));
    expect(result.scores.every((s) => s < 0)).toBe(true); // minus a cross-entropy
  });

  it("audits a run's scores and inclusion vector: the same verdict as auditCanaryScores, the decision and the audit's limit stated", async () => {
    const inclusion = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 13 < 6);
    const scores = inclusion.map((inc, i) => (inc ? 1 : 0) + ((i * 104729) % 1000) / 1e6);
    const verdict = await auditDpTraining({ scores, inclusion, claimedEpsilon: 8, delta: 1e-5 });
    expect(verdict).toEqual(auditCanaryScores({ scores, inclusion, claimedEpsilon: 8, delta: 1e-5 }));
    expect(verdict).toMatchObject({ broken: true, decidedBy: 'gdp', canRefute: true }); // 400 of 400 right: ε ≥ 9.2
    const oneRun = auditCanaryScores({ scores, inclusion, claimedEpsilon: 8, delta: 1e-5, decision: 'one-run' });
    expect(oneRun).toMatchObject({ broken: false, decidedBy: 'one-run', canRefute: false });
    expect(oneRun.empiricalEpsilon).toBe(oneRun.audit.oneRun.epsilon);
    expect(oneRun.message).toContain('cannot prove more than ε = 4.86, so it cannot refute this claim: use more canaries');
    expect(() => auditCanaryScores({ scores, inclusion, claimedEpsilon: -1, delta: 1e-5 })).toThrow(
      'auditCanaryScores: claimedEpsilon must be a number ≥ 0 (Infinity allowed), got -1',
    );
    expect(() => auditCanaryScores({ scores, inclusion, claimedEpsilon: 1, delta: 1e-5, decision: 'best' as 'gdp' })).toThrow(
      `auditCanaryScores: decision must be 'gdp' or 'one-run', got "best"`,
    );
  });

  it('rejects bad input naming the argument', async () => {
    await expect(auditDpTraining(null as never)).rejects.toThrow(InvalidArgumentError);
    await expect(auditDpTraining({ ...setup, model: undefined as never })).rejects.toThrow(
      'auditDpTraining: model must be a function returning a fresh Classifier',
    );
    await expect(auditDpTraining({ ...setup, canaries: { count: 0 } })).rejects.toThrow('auditDpTraining: canaries.count must be a positive integer, got 0');
    expect(() => assertDpClaimHolds({} as never)).toThrow('assertDpClaimHolds: result must be a DpAudit (auditDpTraining)');
  });
});
