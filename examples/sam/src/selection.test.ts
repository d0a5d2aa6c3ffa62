import { selectHyperparameter } from '@mia/experiments/reproduce';
import { describe, expect, it } from 'vitest';
import { SAM_RHO, SAM_RHO_SELECTION, samRho } from './configs';

describe("SAM's ρ at cpu scale", () => {
  it("the anchor column (CIFAR-10, Tables 1–3): the one selection rule's choice from its plan's recorded candidates (docs/protocol.md §5.3), the paper's 0.1 while they are pending", () => {
    if (SAM_RHO_SELECTION.pending) {
      expect(SAM_RHO_SELECTION.candidates).toEqual([]);
      expect(samRho('CIFAR-10', 'cpu', 'core')).toBe(SAM_RHO);
    } else {
      expect(samRho('CIFAR-10', 'cpu', 'core')).toBe(selectHyperparameter(SAM_RHO_SELECTION.candidates, SAM_RHO_SELECTION.criterion).chosen);
      expect(SAM_RHO_SELECTION.grid).toEqual(SAM_RHO_SELECTION.candidates.map((c) => c.value));
    }
    // The models must fit their members (the paper's SAM models reach 100 % train, Table 4).
    expect(SAM_RHO_SELECTION.criterion).toEqual({ kind: 'best-validation', minTrainAccuracy: 0.99 });
  });

  it("Table 4 and CIFAR-100 keep the earlier plan's choice, by the same rule on its candidates", () => {
    const chosen = selectHyperparameter(SAM_RHO_SELECTION.previous.candidates, SAM_RHO_SELECTION.previous.criterion).chosen;
    expect(samRho('CIFAR-10', 'cpu', 'other')).toBe(chosen);
    expect(samRho('CIFAR-100', 'cpu')).toBe(chosen);
    expect(samRho('CIFAR-10', 'paper')).toBe(SAM_RHO);
    expect(samRho('Purchase-100', 'cpu')).toBe(SAM_RHO);
  });
});
