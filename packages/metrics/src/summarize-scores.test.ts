import { describe, expect, it } from 'vitest';
import { dkwAdvantageInterval } from './dkw-advantage-interval';
import { seededUniform } from './seeded-uniform';
import { summarizeAttack } from './summarize-attack';
import { summarizeScores } from './summarize-scores';

// 5 members {10, 9, 8, 6, 4}, 10 non-members {9, 7, 7, 5, 3, 2, 1, 0, −1, −2} (summarize-attack.test.ts).
const scores = [10, 9, 8, 6, 4, 9, 7, 7, 5, 3, 2, 1, 0, -1, -2];
const isMember = scores.map((_, i) => i < 5);

describe('summarizeScores', () => {
  it('gives the hand-computed numbers of summarizeAttack: AUC 0.83, advantage 0.6 at threshold 4', () => {
    const s = summarizeScores(scores, isMember, { fprs: [0.35, 0.1, 0] });
    expect(s.auc).toBeCloseTo(0.83, 15);
    expect(s.advantage).toBeCloseTo(0.6, 15);
    expect(s.balancedAccuracy).toBeCloseTo(0.8, 15);
    expect(s.threshold).toBe(4);
    // threshold 4: all 5 members, 4 of 10 non-members (9, 7, 7, 5) above it.
    expect([s.truePositives, s.falsePositives]).toEqual([5, 4]);
    expect(s.tprAtFpr.map((r) => [r.fpr, r.tpr, r.achievedFpr, r.threshold])).toEqual([
      [0.35, 0.8, 0.3, 6],
      [0.1, 0.6, 0.1, 8],
      [0, 0.2, 0, 10],
    ]);
  });

  it('equals summarizeAttack exactly on seeded data with heavy ties, ±Infinity and the strict convention', () => {
    const random = seededUniform(7);
    for (const [n, levels] of [
      [2000, 0],
      [3000, 17],
      [500, 3],
    ] as const) {
      const member = Array.from({ length: n }, () => random() < 0.4);
      const values = member.map((m) => {
        const v = random() + (m ? 0.15 : 0);
        return levels === 0 ? v : Math.round(v * levels) / levels;
      });
      values[3] = Infinity;
      values[5] = -Infinity;
      for (const strict of [false, true]) {
        const fprs = [0.5, 0.01, 0.001, 0, 1];
        const lean = summarizeScores(Float64Array.from(values), member, { fprs, strict });
        const full = summarizeAttack(values, member, { fprs, strict });
        expect(lean.auc).toBe(full.auc);
        expect(lean.advantage).toBe(full.advantage);
        expect(lean.balancedAccuracy).toBe(full.balancedAccuracy);
        expect(lean.threshold).toBe(full.threshold);
        expect(lean.tprAtFpr).toEqual(full.tprAtFpr);
        expect([lean.numMembers, lean.numNonMembers]).toEqual([full.numMembers, full.numNonMembers]);
      }
    }
  });

  it('rejects bad input with the messages of summarizeAttack', () => {
    expect(() => summarizeScores(scores, isMember, { fprs: [0.1, 2] })).toThrow('summarizeScores: fprs[1] must be a finite number in [0, 1], got 2');
    expect(() => summarizeScores([1, 2], [true, true])).toThrow('summarizeScores: isMember must contain both members and non-members, got 2 members and 0');
    expect(() => summarizeScores([1, NaN], [1, 0])).toThrow('summarizeScores: scores[1] must not be NaN');
    expect(() => summarizeScores([1, 2], [1])).toThrow('summarizeScores: scores and isMember must have the same length, got 2 and 1');
    expect(() => summarizeScores([1, 2], [1, 2])).toThrow('summarizeScores: isMember[1] must be a boolean or 0/1, got 2');
    expect(() => summarizeScores('12' as never, [1, 0])).toThrow('summarizeScores: scores must be an array of numbers, got "12"');
  });
});

describe('dkwAdvantageInterval', () => {
  it('adds sqrt(ln(4/α)/(2n)) per side (hand calculation)', () => {
    // α = 0.05: ln 80 = 4.382026634673881; 1000 members: sqrt(4.382…/2000) = 0.046808…; 4000 non-members: 0.023404…
    const i = dkwAdvantageInterval(0.2, 1000, 4000);
    expect(i.upper).toBeCloseTo(0.2 + Math.sqrt(4.382026634673881 / 2000) + Math.sqrt(4.382026634673881 / 8000), 14);
    expect(i.upper).toBeCloseTo(0.27021239, 7);
    expect(i.lower).toBeCloseTo(0.12978761, 7);
    expect(i.confidence).toBe(0.95);
    expect(dkwAdvantageInterval(0.99, 100, 100).upper).toBe(1);
    expect(dkwAdvantageInterval(0.01, 100, 100).lower).toBe(0);
    // A higher confidence widens it.
    expect(dkwAdvantageInterval(0.2, 1000, 4000, { confidence: 0.99 }).upper).toBeGreaterThan(i.upper);
  });

  it('covers the true best advantage in repeated seeded draws (members U(0.1, 1.1), non-members U(0, 1): 0.1)', () => {
    const random = seededUniform(11);
    let missedAbove = 0;
    let missedBelow = 0;
    for (let trial = 0; trial < 200; trial++) {
      const values = Array.from({ length: 600 }, (_, i) => random() + (i < 300 ? 0.1 : 0));
      const member = values.map((_, i) => i < 300);
      const s = summarizeScores(values, member);
      const interval = dkwAdvantageInterval(s.advantage, s.numMembers, s.numNonMembers);
      if (interval.upper < 0.1) missedAbove++;
      if (interval.lower > 0.1) missedBelow++;
    }
    // Each end may fail in at most 2.5 % of draws; the bound is conservative, so far fewer do.
    expect(missedAbove).toBeLessThanOrEqual(5);
    expect(missedBelow).toBeLessThanOrEqual(5);
  });

  it('rejects bad arguments', () => {
    expect(() => dkwAdvantageInterval(1.2, 10, 10)).toThrow('dkwAdvantageInterval: advantage must be a number in [0, 1], got 1.2');
    expect(() => dkwAdvantageInterval(0.1, 0, 10)).toThrow(/numMembers must be an integer in \[1, /);
    expect(() => dkwAdvantageInterval(0.1, 10, 10, { confidence: 1 })).toThrow('dkwAdvantageInterval: confidence must be a number in (0, 1), got 1');
  });
});
