import { MiaError, ShapeMismatchError } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { metricAttack } from '../attacks/metric-attack';
import { liraAttack } from '../attacks/lira-attack';
import type { ModelSignals, SplitSignals } from '../signals/model-signals';
import { signalsFromLosses } from '../signals/signals-from-losses';
import { signalsFromPhi } from '../test-utils/setup';
import { runAttackSuite } from './run-attack-suite';

const losses = (values: number[], labels: number[]): ModelSignals => signalsFromLosses(values, labels, 2);
// The fixed input of metric-attack.test.ts: loss thresholds −0.2 (class 0) and −0.3 (class 1).
const shadow: SplitSignals = { members: losses([0.1, 0.2, 0.5, 0.3], [0, 0, 0, 1]), nonMembers: losses([0.4, 0.9, 0.3, 1.0], [0, 0, 1, 1]) };
const target: SplitSignals = { members: losses([0.15, 0.3, 0.25], [0, 0, 1]), nonMembers: losses([0.5, 0.2], [0, 1]) };

describe('runAttackSuite', () => {
  it('reports the shadow-threshold accuracy next to the threshold-free metrics', async () => {
    // Per-class thresholds on this hand-built set of 2–3 shadow examples per class (the default falls back to the global threshold below 10).
    const { attacks, maxAdvantage, maxAdvantageAttack } = await runAttackSuite({ target, shadow, attacks: [metricAttack('loss', { minClassExamples: 1 })] });
    const r = attacks[0]!;
    // TPR 2/3, FPR 1/2 (derivation in metric-attack.test.ts) → accuracy ½(2/3 + 1/2) = 7/12, advantage 1/6.
    expect(r.accuracy).toBeCloseTo(7 / 12, 12);
    expect(r.advantage).toBeCloseTo(1 / 6, 12);
    expect(r.decisionBased).toBe(true);
    // AUC of −loss over the 3×2 member/non-member pairs: −.15 beats both; −.3 and −.25 beat only −.5 → 4/6.
    expect(r.auc).toBeCloseTo(4 / 6, 12);
    expect(r.thresholds!.perClass[0]).toBeCloseTo(-0.2, 12);
    expect(maxAdvantage).toBeCloseTo(1 / 6, 12);
    expect(maxAdvantageAttack).toBe('loss');
  });

  it('rejects bad input with clear MiaErrors', async () => {
    await expect(runAttackSuite({ target, shadow })).rejects.toThrow(/at least one attack/);
    await expect(runAttackSuite({ target, shadow, attacks: [metricAttack('loss'), metricAttack('loss')] })).rejects.toThrow(/unique/);
    await expect(runAttackSuite({ target, attacks: [metricAttack('loss')] })).rejects.toThrow(/need both target and shadow/);
    const empty = losses([0.1], [0]);
    const noNonMembers: SplitSignals = {
      members: target.members,
      nonMembers: { ...empty, size: 0, loss: new Float64Array(0), labels: new Int32Array(0), phi: new Float64Array(0), trueProbability: new Float64Array(0) },
    };
    await expect(runAttackSuite({ target: noNonMembers, shadow, attacks: [metricAttack('loss')] })).rejects.toSatisfy((e) => MiaError.isInstance(e));
    const nanTarget: SplitSignals = { members: { ...target.members, loss: Float64Array.from([NaN, 0.1, 0.2]) }, nonMembers: target.nonMembers };
    await expect(runAttackSuite({ target: nanTarget, shadow, attacks: [metricAttack('loss')] })).rejects.toThrow(/NaN/);
    const references = { models: [signalsFromPhi([0, 1, 2])], keep: [[0, 0, 0]] };
    await expect(
      runAttackSuite({ audit: { target: signalsFromPhi([0, 1, 2]), isMember: [1, 0], references, attacks: [liraAttack({ mode: 'offline' })] } }),
    ).rejects.toThrow(ShapeMismatchError);
    await expect(
      runAttackSuite({ audit: { target: signalsFromPhi([0, 1, 2]), isMember: [1, 1, 1], references, attacks: [liraAttack({ mode: 'offline' })] } }),
    ).rejects.toThrow(/both members and non-members/);
  });
});
