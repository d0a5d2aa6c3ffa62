import { studentTQuantile } from '@mia/metrics';
import { describe, expect, it } from 'vitest';
import { fakeResults, fakeRow, fakeSe } from '../test-utils/reproduction-fixtures';
import { SATURATION, regime, saturationProblem, testabilityProblem } from '../run/testability';
import { combineSeeds } from './seeds';
import type { ColumnDecision } from './types';
import { combineColumns, compareEstimates, criticalValue, holmFailures, satterthwaiteDf } from './verdicts';

// Verdict rules 4 (docs/protocol.md §5.1): small-sample critical values, non-inferiority tests,
// no decision on pseudo-replicated SEs, and the gate's convergence, comparator and saturation rules.
const REGIME = regime({ why: 'test' });

describe('critical values with the degrees of freedom of the SE', () => {
  it('is 2 for a large-sample SE and a Student-t quantile for an SE over a few seeds', () => {
    expect(criticalValue('superiority', undefined)).toBeCloseTo(2, 6);
    expect(criticalValue('superiority', Infinity)).toBeCloseTo(2, 6);
    // Three seeds whose spread dominates: 2 df. t₂ at the 2-SE level (one-sided 0.97725) = 4.53.
    expect(criticalValue('superiority', 2)).toBeCloseTo(studentTQuantile(0.9772498680518208, 2), 10);
    expect(criticalValue('superiority', 2)).toBeGreaterThan(4.5);
    expect(criticalValue('non-inferiority', Infinity)).toBeCloseTo(1.959964, 5);
    expect(criticalValue('non-inferiority', 2)).toBeCloseTo(4.302653, 5);
  });

  it('turns a z = 2.81 "holds" on three seeds (one-sided p ≈ 0.05 under t₂) into "within noise"', () => {
    // The referee's case: seed-level SE, k = 3, z = 2.81 — beyond 2 SE, but not beyond t₂'s 4.53.
    const seeds = combineSeeds([0.012, 0.048, 0.03], [0.001, 0.001, 0.001]); // mean 0.03, SE 0.0104: z = 2.87
    expect(seeds.df).toBeLessThan(3);
    const a = { value: 0.5 + seeds.value, se: seeds.se, seSource: 'seeds' as const, df: seeds.df };
    const b = { value: 0.5, se: 0 };
    const z = seeds.value / seeds.se;
    expect(z).toBeGreaterThan(2);
    expect(z).toBeLessThan(studentTQuantile(0.97725, seeds.df));
    const d = compareEstimates(a, b, { direction: 'greater', format: 'num' });
    expect(d.verdict).toBe('within noise');
    expect(d.df).toBeCloseTo(seeds.df, 10);
    expect(d.evidence).toMatch(/t\(2\.\d df\) critical \d\.\d\d × SE/);
    // The same Δ and SE from a large-sample (bootstrap) SE hold: the rule changed nothing there.
    expect(compareEstimates({ value: a.value, se: a.se }, b, { direction: 'greater', format: 'num' }).verdict).toBe('holds');
  });

  it('combines the two sides of an unpaired comparison by Welch–Satterthwaite', () => {
    // Equal variances with 2 df each: df = (2v)² / (2 v²/2) = 4.
    expect(
      satterthwaiteDf([
        { variance: 1, df: 2 },
        { variance: 1, df: 2 },
      ]),
    ).toBeCloseTo(4, 12);
    expect(satterthwaiteDf([{ variance: 1 }, { variance: 1 }])).toBe(Infinity);
    const d = compareEstimates({ value: 1, se: 0.1, df: 2 }, { value: 0, se: 0.1, df: 2 }, { direction: 'greater', format: 'num' });
    expect(d.df).toBeCloseTo(4, 10);
    expect(d.critical).toBeCloseTo(studentTQuantile(0.9772498680518208, 4), 10);
  });

  it('uses the t distribution for Holm p-values of seed-level failures', () => {
    // z = −3 on 2 df: p = T₂(−3) = 0.0477 > α/1 is false at α = 0.05 → rejected alone; with two comparisons 0.0477 > 0.025 → kept as within noise.
    const col = (column: string, z: number, df?: number): ColumnDecision => ({
      column,
      verdict: 'does not hold',
      evidence: 'e',
      a: 0,
      b: 1,
      delta: -1,
      direction: 'greater',
      offset: 0,
      format: 'num',
      se: 1,
      seSource: 'test',
      z,
      ...(df === undefined ? {} : { df }),
    });
    expect(holmFailures([col('A', -3, 2)])[0]!.verdict).toBe('does not hold');
    expect(holmFailures([col('A', -3, 2), col('B', -3, 2)]).map((c) => c.verdict)).toEqual(['within noise', 'within noise']);
    // The same z on a large-sample SE (p = 0.00135) survives with two comparisons.
    expect(holmFailures([col('A', -3), col('B', -3)]).map((c) => c.verdict)).toEqual(['does not hold', 'does not hold']);
  });
});

describe('non-inferiority claims', () => {
  const ni = { direction: 'greater' as const, offset: -0.02, format: 'pct' as const, test: 'non-inferiority' as const };

  it('holds when the lower end of the one-sided 97.5 % bound clears the margin, even when the defense loses some accuracy', () => {
    // Δ = −0.5 points, SE 0.6: (−0.005 + 0.02) / 0.006 = 2.5 > 1.96 → holds. The old "beyond 2 SE" rule needed Δ > −0.8 too, but with
    // the unpaired SE of 1.4 points it needed Δ > +0.8 (a gain).
    const d = compareEstimates({ value: 0.495, se: 0.006 }, { value: 0.5, se: 0 }, ni);
    expect(d.verdict).toBe('holds');
    expect(d.test).toBe('non-inferiority');
    expect(d.critical).toBeCloseTo(1.959964, 5);
    expect(d.evidence).toBe('49.5 vs 50.0, Δ = −0.5 ± 0.6 against the margin −2.0 (one-sided 2.5 %, normal critical 1.96 × SE = 1.2)');
  });

  it('does not hold when the upper bound is below the margin, else within noise', () => {
    expect(compareEstimates({ value: 0.45, se: 0.006 }, { value: 0.5, se: 0 }, ni).verdict).toBe('does not hold');
    expect(compareEstimates({ value: 0.485, se: 0.006 }, { value: 0.5, se: 0 }, ni).verdict).toBe('within noise');
  });

  it('refuses a non-inferiority test without a negative margin or in the other direction', () => {
    expect(() => compareEstimates({ value: 1, se: 0.1 }, { value: 1, se: 0.1 }, { ...ni, offset: 0 })).toThrow(
      /non-inferiority test needs direction 'greater' and a negative offset/,
    );
    expect(() => compareEstimates({ value: 1, se: 0.1 }, { value: 1, se: 0.1 }, { ...ni, direction: 'less' })).toThrow(/got direction "less"/);
  });
});

describe('pseudo-replication', () => {
  it('decides nothing on an SE over one model’s parameters or evaluation points: shown, not decided', () => {
    for (const seSource of ['parameters', 'sample'] as const) {
      const d = compareEstimates({ value: 0.9, se: 0.0001, seSource }, { value: 0.1, se: 0.0001, seSource }, { direction: 'greater', format: 'num' });
      expect(d.verdict).toBe('not testable');
      expect(d.reason).toMatch(/^shown, not decided: 0\.900 vs 0\.100, Δ = \+0\.800, but its SE is over .*pseudo-replication/);
      expect(d.z).toBeUndefined();
    }
    // Repeated seeds decide the same numbers.
    expect(
      compareEstimates({ value: 0.9, se: 0.01, seSource: 'seeds' }, { value: 0.1, se: 0.01, seSource: 'seeds' }, { direction: 'greater', format: 'num' })
        .verdict,
    ).toBe('holds');
  });
});

describe('the gate: convergence, comparators and one saturation rule per model', () => {
  const undefended = fakeRow('w/o', { train: 0.995, test: 0.505, adv: 0.58, se: fakeSe(0.01) });

  it('makes a claim not testable when a compared row stays far from converged (its test accuracy far below the undefended one)', () => {
    const ccql = fakeRow('CCQL', { train: 0.73, test: 0.386, adv: 0.2, se: fakeSe(0.01) });
    const convergence = { rows: ['CCQL'], maxTestDrop: 0.05, why: 'our criterion: within 5 points of the undefended test accuracy' };
    const problem = testabilityProblem({ results: fakeResults([undefended, ccql]), undefended: 'w/o', compared: ['CCQL'], regime: REGIME, convergence });
    expect(problem).toBe(
      'CCQL far from converged (test accuracy 38.6 % vs undefended 50.5 %: 11.9 points below, more than 5.0 + 2 SE; our criterion: within 5 points of the undefended test accuracy)',
    );
    // A converged CCQL 4 points below passes; one 6 points below within noise of the 5-point bound passes too.
    for (const test of [0.465, 0.445]) {
      const row = fakeRow('CCQL', { train: 0.9, test, adv: 0.2, se: fakeSe(0.01) });
      expect(
        testabilityProblem({ results: fakeResults([undefended, row]), undefended: 'w/o', compared: ['CCQL'], regime: REGIME, convergence }),
      ).toBeUndefined();
    }
  });

  it('makes a privacy claim not testable when a comparator does not lower leakage below the undefended model', () => {
    const advReg = fakeRow('AdvReg', { train: 0.99, test: 0.5, adv: 0.6 });
    const problem = testabilityProblem({
      results: fakeResults([undefended, advReg]),
      undefended: 'w/o',
      compared: ['AdvReg'],
      regime: REGIME,
      comparators: ['AdvReg'],
    });
    expect(problem).toMatch(/^comparator ineffective: AdvReg's highest attack advantage 60\.0 % is not below the undefended model's 58\.0 %/);
    const tuned = fakeRow('AdvReg', { train: 0.9, test: 0.5, adv: 0.3 });
    expect(
      testabilityProblem({ results: fakeResults([undefended, tuned]), undefended: 'w/o', compared: ['AdvReg'], regime: REGIME, comparators: ['AdvReg'] }),
    ).toBeUndefined();
    // A drop within 2 SE of the difference is at the edge: 0.2 points below with SEs of 1 point each.
    const withSe = (label: string, adv: number) => fakeRow(label, { train: 0.995, test: 0.505, adv, se: fakeSe(0.01) });
    const gate = (adv: number) =>
      testabilityProblem({
        results: fakeResults([withSe('w/o', 0.58), withSe('AdvReg', adv)]),
        undefended: 'w/o',
        compared: ['AdvReg'],
        regime: REGIME,
        comparators: ['AdvReg'],
      });
    expect(gate(0.578)).toMatch(
      /^comparator ineffective: AdvReg's highest attack advantage 57\.8 % is below the undefended model's 58\.0 % by 0\.2 points, within 2 SE \(SE 1\.4\): at the edge/,
    );
    expect(gate(0.5)).toBeUndefined();
    // A utility claim does not depend on the comparator's leakage.
    expect(
      testabilityProblem({
        results: fakeResults([undefended, advReg]),
        undefended: 'w/o',
        compared: ['AdvReg'],
        regime: REGIME,
        comparators: ['AdvReg'],
        kind: 'utility',
      }),
    ).toBeUndefined();
  });

  it('decides saturation from every attack on the model, the runner’s and those run outside it, with one fixed limit', () => {
    expect(SATURATION).toEqual({ accuracy: 0.95, auc: 0.99 });
    expect(saturationProblem(undefended)).toBeUndefined();
    const external = [{ attack: 'multi-query', accuracy: 0.97, auc: 0.99 }];
    expect(saturationProblem(undefended, external)).toBe(
      'saturated (undefended multi-query attack accuracy 97.0 % ≥ 95.0 %, multi-query AUC 0.990 ≥ 0.99: no defense effect can show)',
    );
    const results = fakeResults([undefended]);
    // Two reproductions gating the same model, one of them with the attacks it ran itself: the model is saturated for both only if
    // both see those attacks — the rule is the same function with the same limits, and a regime cannot override them.
    const withExternal = testabilityProblem({ results, undefended: 'w/o', compared: [], regime: REGIME, extraAttacks: external });
    const strictRegime = regime({ why: 'a regime cannot loosen saturation', ...({ saturationAccuracy: 0.999 } as object) });
    expect(testabilityProblem({ results, undefended: 'w/o', compared: [], regime: strictRegime, extraAttacks: external })).toBe(withExternal);
  });
});

describe('combineColumns under rules 4', () => {
  it('keeps a pseudo-replicated column out of the decided ones', () => {
    const shown = compareEstimates(
      { value: 1, se: 0.001, seSource: 'parameters' },
      { value: 0, se: 0.001, seSource: 'parameters' },
      { direction: 'greater', format: 'num' },
    );
    const claim = combineColumns('s', [{ column: 'CIFAR-10', ...shown }]);
    expect(claim.verdict).toBe('not testable');
  });
});
