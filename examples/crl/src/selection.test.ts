import { selectHyperparameter } from '@mia/experiments/reproduce';
import { describe, expect, it } from 'vitest';
import { CPU_PLAN, LAMBDA_SELECTION } from './configs';

describe("CRL's λ at cpu scale", () => {
  it('is what the one selection rule chooses from the recorded candidates (docs/protocol.md §5.3)', () => {
    expect(selectHyperparameter(LAMBDA_SELECTION.candidates, LAMBDA_SELECTION.criterion).chosen).toBe(CPU_PLAN.lambda);
    expect(LAMBDA_SELECTION.grid).toEqual(LAMBDA_SELECTION.candidates.map((c) => c.value));
  });
});
