import type { DefenseRow } from '@mia/experiments';
import { validationView } from '@mia/experiments/reproduce';
import { describe, expect, it } from 'vitest';
import { FIG5A_TOLERANCE, chooseOnValidation } from './fig5a';

const row = (lambda: number, validation: number | undefined, test: number) =>
  validationView({
    label: `L1 lambda=${lambda}`,
    params: { lambda },
    testAccuracy: test,
    ...(validation === undefined ? {} : { validationAccuracy: validation }),
  } as unknown as DefenseRow);

describe('Fig. 5a: the setting is chosen on the validation slice', () => {
  it('takes the largest λ whose validation accuracy is ≥ the base − 2 points, whatever the test accuracy says (the views carry none)', () => {
    // λ = 1e-3 has the best test accuracy but a validation accuracy 3 points under the base: not chosen.
    const rows = [row(1e-5, 0.5, 0.5), row(1e-4, 0.49, 0.48), row(1e-3, 0.47, 0.6)];
    expect(FIG5A_TOLERANCE).toBe(0.02);
    expect(chooseOnValidation(rows, 0.5)!.params['lambda']).toBe(1e-4);
    // Rows without a validation accuracy are never chosen; none qualifies → undefined.
    expect(chooseOnValidation([row(1e-3, undefined, 0.9)], 0.5)).toBeUndefined();
    expect(chooseOnValidation(rows, 0.6)).toBeUndefined();
  });
});
