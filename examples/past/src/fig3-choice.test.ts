import type { DefenseRow } from '@mia/experiments';
import { describe, expect, it } from 'vitest';
import { FIG3_TOLERANCE, chooseFig3Settings, type Fig3CurveKnob } from './fig3-choice';
import { strongestOnValidation } from './strongest-on-validation';

// Rows as the runner labels a grid ("<curve> <knob>=<value>"); the test accuracies and advantages are
// the opposite of what validation says, so a chooser that looked at them would choose differently.
const row = (label: string, params: Record<string, unknown>, validation: number | undefined, test: number, advantage: number): DefenseRow =>
  ({ label, params, validationAccuracy: validation, testAccuracy: test, maxAdvantage: advantage, attacks: [] }) as unknown as DefenseRow;

const rows = [
  row('w/o', {}, 0.5, 0.5, 0.8),
  row('PAST alpha=0.5', { alpha: 0.5 }, 0.5, 0.4, 0.7),
  row('PAST alpha=2.5', { alpha: 2.5 }, 0.492, 0.55, 0.1),
  row('PAST alpha=3.5', { alpha: 3.5 }, 0.48, 0.6, 0.05),
  row('Early stopping epochs=2', { epochs: 2 }, 0.3, 0.6, 0.1),
  row('Early stopping epochs=8', { epochs: 8 }, 0.495, 0.4, 0.6),
  row('Early stopping epochs=16', { epochs: 16 }, 0.5, 0.5, 0.8),
  row('L1 lambda=0.001', { lambda: 0.001 }, 0.2, 0.7, 0.0),
];
const curves: Fig3CurveKnob[] = [
  { curve: 'PAST', prefix: 'PAST', knob: 'alpha', stronger: 'larger' },
  { curve: 'Early stopping', prefix: 'Early stopping', knob: 'epochs', stronger: 'smaller' },
  { curve: 'L1', prefix: 'L1', knob: 'lambda', stronger: 'larger' },
];

describe('Fig. 3: one setting per curve, chosen on the validation slice', () => {
  it('takes the strongest setting within 1 point of the undefended validation accuracy, whichever way the knob strengthens', () => {
    expect(FIG3_TOLERANCE).toBe(0.01);
    const choices = chooseFig3Settings(rows, curves);
    expect(choices.reference).toBe(0.5);
    // α = 3.5 is 2 points below on validation (its test accuracy and advantage would have won): α = 2.5, 0.8 point below, is the strongest kept.
    expect(choices.chosen.get('PAST')!.view.label).toBe('PAST alpha=2.5');
    // Early stopping: fewer epochs is stronger; epoch 2 loses 20 points, epoch 8 keeps within 0.5.
    expect(choices.chosen.get('Early stopping')!.view.label).toBe('Early stopping epochs=8');
    expect(choices.chosen.has('L1')).toBe(false);
    expect(choices.missing.get('L1')).toBe(
      "no L1 setting keeps validation accuracy within 1.0 point of the undefended model's (50.0 %); the best, L1 lambda=0.001, has 20.0 %",
    );
  });

  it('chooses nothing without a validation slice, and says a choice would have to read the evaluation data', () => {
    const choices = chooseFig3Settings(
      rows.map((r) => ({ ...r, validationAccuracy: undefined })),
      curves,
    );
    expect(choices.reference).toBeUndefined();
    expect(choices.chosen.size).toBe(0);
    expect(choices.missing.get('PAST')).toMatch(/no validation accuracy of the undefended model, so a setting could only be chosen on the evaluation data/);
  });

  it('refuses settings of equal strength (the order would be ambiguous)', () => {
    const views = [
      { label: 'a', params: { x: 1 }, validationAccuracy: 0.5, validationCurve: undefined },
      { label: 'b', params: { x: 1 }, validationAccuracy: 0.5, validationCurve: undefined },
    ];
    expect(() => strongestOnValidation(views, { reference: 0.5, tolerance: 0.01, strength: (v) => v.params['x'] as number })).toThrow(
      'strongestOnValidation: views must have distinct strengths, got a: 1, b: 1',
    );
  });
});
