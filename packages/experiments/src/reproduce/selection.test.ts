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
