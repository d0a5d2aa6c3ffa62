import { selectHyperparameter } from '@mia/experiments/reproduce';
import { describe, expect, it } from 'vitest';
import { SAM_RHO_SELECTION, samRho } from './configs';

describe("SAM's ρ at cpu scale", () => {
  it('is what the one selection rule chooses from the recorded candidates (docs/protocol.md §5.3)', () => {
    const chosen = selectHyperparameter(SAM_RHO_SELECTION.candidates, SAM_RHO_SELECTION.criterion).chosen;
    expect(samRho('CIFAR-10', 'cpu')).toBe(chosen);
    expect(samRho('CIFAR-100', 'cpu')).toBe(chosen);
    expect(SAM_RHO_SELECTION.grid).toEqual(SAM_RHO_SELECTION.candidates.map((c) => c.value));
  });
});
