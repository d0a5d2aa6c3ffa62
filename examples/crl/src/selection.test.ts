import { selectHyperparameter } from '@mia/experiments/reproduce';
import { describe, expect, it } from 'vitest';
import { ADVREG_SELECTION, advRegAlpha } from './adv-reg-selection';
import { CPU_PLAN, EARLIER_CPU_PLAN, LAMBDA_SELECTION, advRegSelectionConfig, groupConfig, selectCenterStep } from './configs';

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
    // The centre step: each step's λ by the rule, then the step whose chosen model validates higher.
    const steps = selectCenterStep();
    expect(steps.chosen.centerStep).toBe(CPU_PLAN.centerStep ?? 'code');
    expect(steps.chosen.lambda).toBe(CPU_PLAN.lambda);
    expect(steps[steps.chosen.centerStep === 'code' ? 'paper' : 'code'].validationAccuracy).toBeLessThanOrEqual(steps.chosen.validationAccuracy);
    expect(LAMBDA_SELECTION.paperStep.map((c) => c.value)).toEqual(LAMBDA_SELECTION.grid);
    const crl = groupConfig('cifar10', 'ResNet18', 'cpu').defenses.find((d) => d.label === 'CRL')!.params as { lambda: number; centerStep?: string };
    expect([crl.lambda, crl.centerStep ?? 'code']).toEqual([CPU_PLAN.lambda, CPU_PLAN.centerStep ?? 'code']);
    // The earlier plan's λ was what its candidates chose.
    expect(selectHyperparameter(LAMBDA_SELECTION.previous.candidates, LAMBDA_SELECTION.previous.criterion).chosen).toBe(EARLIER_CPU_PLAN.lambda);
  });
});

describe("AdvReg's α at cpu scale", () => {
  const alphaIn = (scale: 'smoke' | 'cpu' | 'paper') =>
    (groupConfig('cifar10', 'ResNet18', scale).defenses.find((d) => d.label === 'AdvReg')!.params as { alpha: number }).alpha;
  it('is what the one selection rule chooses from the recorded candidates (docs/protocol.md §5.3), or the untuned 1 while they are pending', () => {
    if (ADVREG_SELECTION.pending) {
      expect(ADVREG_SELECTION.candidates).toEqual([]);
      expect(alphaIn('cpu')).toBe(ADVREG_SELECTION.untuned);
    } else {
      expect(alphaIn('cpu')).toBe(selectHyperparameter(ADVREG_SELECTION.candidates, ADVREG_SELECTION.criterion).chosen);
      expect(ADVREG_SELECTION.grid).toEqual(ADVREG_SELECTION.candidates.map((c) => c.value));
    }
    expect(alphaIn('cpu')).toBe(advRegAlpha('cpu'));
    // The reference is CE's validation accuracy on the same plan (the λ sweep measured it).
    expect(ADVREG_SELECTION.criterion).toEqual({
      kind: 'strongest-within',
      reference: (LAMBDA_SELECTION.criterion as { reference: number }).reference,
      tolerance: ADVREG_SELECTION.tolerance,
    });
  });

  it("the selection sweep is Table 1a's config with CE and AdvReg over the grid, targets only", () => {
    const sweep = advRegSelectionConfig();
    const table = groupConfig('cifar10', 'ResNet18', 'cpu');
    expect(sweep.attacks).toEqual([]);
    expect(sweep.partition).toEqual(table.partition);
    expect(sweep.training).toEqual(table.training);
    expect(sweep.defenses.map((d) => d.label)).toEqual(['CE', 'AdvReg']);
    expect(sweep.defenses[1]!.grid).toEqual({ alpha: [...ADVREG_SELECTION.grid] });
    expect(sweep.defenses[0]).toEqual(table.defenses[0]);
  });
});
