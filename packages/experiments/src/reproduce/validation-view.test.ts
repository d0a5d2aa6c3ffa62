import { describe, expect, it } from 'vitest';
import type { DefenseRow } from '../run/results';
import { validationView } from './validation-view';

// A row whose evaluation fields throw when read: the view must not touch them.
function guardedRow(extra: Record<string, unknown>): DefenseRow {
  const row: Record<string, unknown> = { label: 'PAST alpha=2.5', params: { alpha: 2.5 }, ...extra };
  for (const field of ['trainAccuracy', 'testAccuracy', 'attacks', 'maxAdvantage', 'p1', 'lossGap', 'se', 'seeds'])
    Object.defineProperty(row, field, {
      get: () => {
        throw new Error(`read ${field}`);
      },
    });
  return row as unknown as DefenseRow;
}

describe('validationView', () => {
  it('keeps the label, params, validation accuracy and the target’s validation curve, and reads nothing of the evaluation data', () => {
    const view = validationView(
      guardedRow({ validationAccuracy: 0.51, trainingMetrics: { target: { validationCurve: [0.3, 0.45, 0.51] }, shadow: undefined } }),
    );
    expect(view).toEqual({ label: 'PAST alpha=2.5', params: { alpha: 2.5 }, validationAccuracy: 0.51, validationCurve: [0.3, 0.45, 0.51] });
  });

  it('has no validation numbers when the run had no slice, and no curve when the recorded one is not a list of numbers', () => {
    expect(validationView(guardedRow({}))).toEqual({
      label: 'PAST alpha=2.5',
      params: { alpha: 2.5 },
      validationAccuracy: undefined,
      validationCurve: undefined,
    });
    const bad = validationView(guardedRow({ validationAccuracy: 0.5, trainingMetrics: { target: { validationCurve: [0.3, 'x'] }, shadow: undefined } }));
    expect(bad.validationCurve).toBeUndefined();
  });
});
