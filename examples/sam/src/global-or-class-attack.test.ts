import { signalsFromLosses, type SplitSignals } from '@mia/attacks';
import { describe, expect, it } from 'vitest';
import { globalOrClassAttack } from './global-or-class-attack';

// Confidence p_y = exp(−loss). Class 0: members 0.9, non-members 0.8; class 1: members 0.5, non-members 0.4.
// No single threshold separates both classes (0.5 < 0.8), per-class thresholds do.
const split = (pm: number[], pn: number[], labelsM: number[], labelsN: number[]): SplitSignals => ({
  members: signalsFromLosses(
    pm.map((p) => -Math.log(p)),
    labelsM,
    2,
  ),
  nonMembers: signalsFromLosses(
    pn.map((p) => -Math.log(p)),
    labelsN,
    2,
  ),
});
// Ten examples per class and side: per-class thresholds need ≥ 10 (MIN_CLASS_EXAMPLES of @mia/attacks).
const ten = (values: number[]) => values.flatMap((v) => Array.from({ length: 10 }, () => v));
const classWise = split(ten([0.9, 0.5]), ten([0.8, 0.4]), ten([0, 1]), ten([0, 1]));
// Here class 1 has no member in the known data: per-class falls back, and the global threshold is as good.
const globalOnly = split([0.9, 0.95], [0.4, 0.5], [0, 1], [0, 1]);

describe('globalOrClassAttack', () => {
  it('keeps per-class thresholds when they classify the known split better', async () => {
    const attack = globalOrClassAttack('confidence', 'Confidence');
    await attack.prepare(classWise);
    expect([...attack.decide!(classWise.members), ...attack.decide!(classWise.nonMembers)]).toEqual([...ten([1, 1]), ...ten([0, 0])]);
    expect(attack.report!(classWise.members, new Uint8Array(20).fill(1))).toEqual({ classesOnGlobalThreshold: 0 });
    expect(attack.name).toBe('Confidence');
  });

  it('scores like the statistic (higher = member) and refuses to decide before prepare', async () => {
    const attack = globalOrClassAttack('confidence', 'c');
    expect(() => attack.decide!(globalOnly.members)).toThrow(/c\.score: call prepare\(\) before scoring/);
    await attack.prepare(globalOnly);
    expect([...attack.score(globalOnly.members)].map((v) => Number(v.toFixed(6)))).toEqual([0.9, 0.95]);
    expect([...attack.decide!(globalOnly.nonMembers)]).toEqual([0, 0]);
  });
});
