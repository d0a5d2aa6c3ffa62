import { describe, expect, it } from 'vitest';
import { selectHyperparameter } from './selection';

describe('selectHyperparameter (docs/protocol.md §5.3)', () => {
  const grid = [
    { value: 1e-5, validationAccuracy: 0.499, trainAccuracy: 0.998 },
    { value: 3e-5, validationAccuracy: 0.464, trainAccuracy: 0.972 },
    { value: 1e-4, validationAccuracy: 0.464, trainAccuracy: 0.984 },
    { value: 1e-3, validationAccuracy: 0.399, trainAccuracy: 0.432 },
  ];

  it('strongest-within: the largest value within the tolerance of the control, however the grid is ordered', () => {
    expect(selectHyperparameter(grid, { kind: 'strongest-within', reference: 0.498, tolerance: 0.01 }).chosen).toBe(1e-5);
    expect(selectHyperparameter([...grid].reverse(), { kind: 'strongest-within', reference: 0.47, tolerance: 0.01 }).chosen).toBe(1e-4);
    const wide = selectHyperparameter(grid, { kind: 'strongest-within', reference: 0.498, tolerance: 0.2 });
    expect(wide.chosen).toBe(1e-3);
    // Unless the strongest does not fit its members.
    const fitted = selectHyperparameter(grid, { kind: 'strongest-within', reference: 0.498, tolerance: 0.2, minTrainAccuracy: 0.9 });
    expect(fitted.chosen).toBe(1e-4);
    expect(fitted.reason).toMatch(/within 20\.0 % of the control's \(49\.8 %\); 1 candidate\(s\) below 90\.0 % train accuracy not eligible/);
  });

  it('best-validation: the highest validation accuracy among fitted models, the first on ties', () => {
    const rho = [
      { value: 0.02, validationAccuracy: 0.347, trainAccuracy: 0.975 },
      { value: 0.05, validationAccuracy: 0.391, trainAccuracy: 0.847 },
      { value: 0.1, validationAccuracy: 0.347, trainAccuracy: 0.467 },
    ];
    expect(selectHyperparameter(rho, { kind: 'best-validation' }).chosen).toBe(0.05);
    expect(selectHyperparameter(rho, { kind: 'best-validation', minTrainAccuracy: 0.9 }).chosen).toBe(0.02);
    expect(selectHyperparameter([rho[0]!, { ...rho[2]!, trainAccuracy: 0.99 }], { kind: 'best-validation' }).chosen).toBe(0.02);
  });

  it('says where the choice sits in its grid: bracketed, or at an edge a value beyond which was not measured', () => {
    const within = (tolerance: number) => ({ kind: 'strongest-within' as const, reference: 0.498, tolerance });
    // strongest-within: 1e-5 passes and 3e-5 fails: bracketed, though it is the smallest value (a weaker
    // value cannot be chosen while 1e-5 passes).
    expect(selectHyperparameter(grid, within(0.01)).position).toBe('interior');
    // Every value passes: the largest is chosen and a stronger one was never tried.
    const flat = selectHyperparameter(grid, within(0.2));
    expect(flat.position).toBe('largest');
    expect(flat.reason).toMatch(/; the largest eligible value of the grid \(a value beyond it was not measured\)$/);
    // A stronger value that does not fit its members also brackets the choice.
    expect(selectHyperparameter(grid, { ...within(0.2), minTrainAccuracy: 0.9 }).position).toBe('interior');
    expect(selectHyperparameter([grid[0]!], within(0.01)).position).toBe('only');
    // best-validation: interior only with an eligible value on each side.
    const acc = (values: number[]) => values.map((v, i) => ({ value: [0.02, 0.05, 0.1][i]!, validationAccuracy: v, trainAccuracy: 1 }));
    expect(selectHyperparameter(acc([0.4, 0.5, 0.4]), { kind: 'best-validation' }).position).toBe('interior');
    expect(selectHyperparameter(acc([0.5, 0.5, 0.4]), { kind: 'best-validation' }).position).toBe('smallest'); // a tie goes to the first
    expect(selectHyperparameter(acc([0.4, 0.4, 0.5]), { kind: 'best-validation' }).position).toBe('largest');
    // The largest eligible one when the values above it do not fit.
    const unfit = acc([0.4, 0.5, 0.6]).map((c, i) => (i === 2 ? { ...c, trainAccuracy: 0.5 } : c));
    expect(selectHyperparameter(unfit, { kind: 'best-validation', minTrainAccuracy: 0.9 }).position).toBe('largest');
    expect(selectHyperparameter(acc([0.5, 0.5, 0.4]), { kind: 'best-validation' }, { ordered: false })).toEqual({
      chosen: 0.02,
      reason: 'the highest validation accuracy (50.0 %)',
      position: 'unordered',
    });
  });

  it('refuses what it cannot decide, saying what to do', () => {
    expect(() => selectHyperparameter([], { kind: 'best-validation' })).toThrow(/at least one candidate, got 0/);
    expect(() => selectHyperparameter([{ value: 1, validationAccuracy: NaN }], { kind: 'best-validation' })).toThrow(
      /candidates\[0\] must have a finite value/,
    );
    expect(() => selectHyperparameter([{ value: 1, validationAccuracy: 0.5 }], { kind: 'best-validation', minTrainAccuracy: 0.9 })).toThrow(
      /candidates\[0\]\.trainAccuracy must be given/,
    );
    expect(() => selectHyperparameter(grid, { kind: 'best-validation', minTrainAccuracy: 0.999 })).toThrow(/no candidate fits .*train the candidates longer/);
    expect(() => selectHyperparameter(grid, { kind: 'strongest-within', reference: 0.6, tolerance: 0.01 })).toThrow(
      /within 1\.0 % of the reference 60\.0 %.*add smaller values/,
    );
  });
});
