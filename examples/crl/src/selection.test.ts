import { selectHyperparameter } from '@mia/experiments/reproduce';
import { describe, expect, it } from 'vitest';
import { CPU_PLAN, FIG7_CPU_PLAN, LAMBDA_SELECTION } from './configs';

describe("CRL's λ at cpu scale", () => {
  it("is what the one selection rule chooses from the recorded candidates (docs/protocol.md §5.3), or, while the current plan is not yet measured, the earlier plan's choice", () => {
    if (LAMBDA_SELECTION.pending) {
      expect(LAMBDA_SELECTION.candidates).toEqual([]);
      const previous = selectHyperparameter(LAMBDA_SELECTION.previous.candidates, LAMBDA_SELECTION.previous.criterion).chosen;
      expect(CPU_PLAN.lambda).toBe(previous);
      expect(LAMBDA_SELECTION.grid).toContain(CPU_PLAN.lambda);
    } else {
      expect(selectHyperparameter(LAMBDA_SELECTION.candidates, LAMBDA_SELECTION.criterion!).chosen).toBe(CPU_PLAN.lambda);
      expect(LAMBDA_SELECTION.grid).toEqual(LAMBDA_SELECTION.candidates.map((c) => c.value));
    }
    // Fig. 7 keeps the earlier plan, whose λ the earlier candidates chose.
    expect(selectHyperparameter(LAMBDA_SELECTION.previous.candidates, LAMBDA_SELECTION.previous.criterion).chosen).toBe(FIG7_CPU_PLAN.lambda);
  });
});
