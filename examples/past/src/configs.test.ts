import { prepareData } from '@mia/experiments';
import { describe, expect, it } from 'vitest';
import { ablationSetup, datasetSetup, type DatasetSetup } from './configs';
import { selectHyperparameter } from '@mia/experiments/reproduce';
import { ABLATION_LAMBDA_SELECTION, CPU_PLAN, LAMBDA_SELECTION } from './cpu-plan';
import { table1Config, TUNING_CONTROL } from './table1';

const cpu = (key: 'texas' | 'purchase' | 'cifar10' | 'cifar100') => datasetSetup(key, 'cpu') as DatasetSetup;
const ROLE_SIZE: Readonly<Record<string, number>> = { cifar10: 60_000 / 6, cifar100: 60_000 / 6 };

describe("PAST cpu plan (the paper's regime, matched control, λ on a validation slice)", () => {
  it('Table 1 at cpu scale is CPU_PLAN.table1: thousands of members, a validation slice that fits beside the capped target_inference', () => {
    for (const key of ['texas', 'purchase', 'cifar10', 'cifar100'] as const) {
      const setup = cpu(key);
      expect(setup).toBe(CPU_PLAN.table1[key]);
      expect(setup.maxPerRole).toBeGreaterThanOrEqual(2500);
      expect(setup.validation).toBeGreaterThanOrEqual(500);
      const roleSize = setup.dataset.size === undefined ? ROLE_SIZE[key]! : Math.floor(setup.dataset.size / 6);
      expect(setup.maxPerRole! + setup.validation!, key).toBeLessThanOrEqual(roleSize);
      const config = table1Config(setup);
      expect(config.partition).toEqual({ preset: 'PAST6', maxPerRole: setup.maxPerRole, validation: setup.validation });
    }
    // The ablations: the Purchase stand-in at half Table 1's size (~60 models in Fig. 3), with its own
    // validation slice beside the capped target_inference role (λ chosen on it).
    const ablation = ablationSetup('cifar10', 'cpu');
    expect(ablation).toBe(CPU_PLAN.ablation);
    expect(ablation.maxPerRole).toBe(5000);
    expect(ablation.maxPerRole! + ablation.validation!).toBeLessThanOrEqual(Math.floor(ablation.dataset.size! / 6));
  });

  it("Table 1 has the matched control: PAST's tuning phase (same epochs, LR, α, phase 1) with λ = 0, at every scale", () => {
    for (const scale of ['smoke', 'cpu', 'paper'] as const) {
      const config = table1Config(datasetSetup('cifar10', scale) as DatasetSetup);
      expect(config.defenses.map((d) => d.label)).toEqual(['w/o', 'PAST', TUNING_CONTROL]);
      const [, past, control] = config.defenses;
      expect(control!.name).toBe('past');
      expect(control!.params).toEqual({ ...past!.params, lambda: 0 });
      expect(past!.params.lambda).toBeGreaterThan(0);
    }
  });

  it('λ is chosen from a grid on the validation slice: the chosen value is a grid point', () => {
    for (const key of ['texas', 'purchase', 'cifar10'] as const) expect(LAMBDA_SELECTION.grid).toContain(cpu(key).past.lambda);
  });

  it("each plan's λ is what the one selection rule chooses from the recorded candidates (docs/protocol.md §5.3)", () => {
    const { purchase, cifar10 } = LAMBDA_SELECTION;
    expect(selectHyperparameter(purchase.candidates, purchase.criterion).chosen).toBe(cpu('purchase').past.lambda);
    // Texas has no measurements of its own: it takes Purchase's value.
    expect(cpu('texas').past.lambda).toBe(cpu('purchase').past.lambda);
    expect(selectHyperparameter(cifar10.candidates, cifar10.criterion).chosen).toBe(cpu('cifar10').past.lambda);
    expect(selectHyperparameter(ABLATION_LAMBDA_SELECTION.candidates, ABLATION_LAMBDA_SELECTION.criterion).chosen).toBe(CPU_PLAN.ablation.past.lambda);
  });

  it('the validation slice is disjoint from every attacked or trained-on role (purchase stand-in, real partition)', async () => {
    const data = await prepareData(table1Config(cpu('purchase')));
    const { validation, ...others } = data.partition.roles;
    expect(validation).toHaveLength(cpu('purchase').validation!);
    const used = new Set(Object.values(others).flat());
    expect(validation!.filter((i) => used.has(i))).toEqual([]);
    expect(others.target_train).toHaveLength(cpu('purchase').maxPerRole!);
  });

  it("paper scale: ResNet-18 with torchvision's stem on CIFAR-10, DenseNet-121 (torchvision stem by default) on CIFAR-100 (docs/protocol.md §2.1, §6 item 6)", () => {
    expect(table1Config(datasetSetup('cifar10', 'paper') as DatasetSetup).model).toEqual({ name: 'resnet18', options: { stem: 'imagenet' } });
    expect(table1Config(datasetSetup('cifar100', 'paper') as DatasetSetup).model).toEqual({ name: 'densenet121', options: {} });
  });
});
