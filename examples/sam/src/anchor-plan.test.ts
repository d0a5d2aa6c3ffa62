import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { modelParameterCount } from '@mia/models';
import { budgetMinutes } from '@mia/experiments/reproduce';
import { beforeAll, describe, expect, it } from 'vitest';
import { CPU_PLAN, SAM_RHO_SELECTION, STAND_IN_PILOT, TABLE1_BUDGET, TABLE1_PILOT, columnConfig, coreDefenses, rhoSelectionConfig, seedsAt } from './configs';

const parameters = (name: string, options: Record<string, unknown>) =>
  modelParameterCount(name, { ...options, numClasses: 10, inputShape: [32, 32, 3], seed: 0 });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe("SAM Table 1's CIFAR-10 column: the paper's plan at paper scale, the anchor plan at cpu scale", () => {
  it("paper scale: the paper's WRN-16-8 (≈ 11 M parameters) constructs, 200 epochs, best-validation checkpoint", () => {
    const c = columnConfig('CIFAR-10', 'paper');
    expect(c.model).toEqual({ name: 'wrn-16-8', options: {} });
    const n = parameters(c.model.name, c.model.options);
    expect(n).toBeGreaterThan(10.9e6);
    expect(n).toBeLessThan(11.1e6);
    expect(c.training).toMatchObject({ epochs: 200, lr: 0.1, nesterov: true, checkpoint: 'best-validation' });
  });

  it('cpu scale: Tables 1–3 run ResNet-18 (App. E) at width 32 on ≥ 5,000 members with the schedule measured to fit and the best-validation checkpoint, 3 seeds; Table 4 keeps the earlier plan', () => {
    const c = columnConfig('CIFAR-10', 'cpu', coreDefenses('CIFAR-10', 'cpu'), 'core');
    expect(c.model).toEqual({ name: 'resnet18', options: { stem: 'imagenet', width: 32 } });
    expect(c.partition).toEqual({ preset: 'CCL5', maxPerRole: 5000, validation: 1000 });
    expect(c.training).toMatchObject({ epochs: 30, checkpoint: 'best-validation', nesterov: true, lr: 0.05, schedule: { type: 'cosine' } });
    // No augmentation: with crop + flip the model does not fit in the budget (TABLE1_PILOT); the paper's §3.2 footnote 2.
    expect(c.training.augment).toBeUndefined();
    expect(seedsAt('cpu')).toBe(3);
    const table4 = columnConfig('CIFAR-10', 'cpu', coreDefenses('CIFAR-10', 'cpu'), 'table4');
    expect(table4.partition.maxPerRole).toBe(CPU_PLAN.columns['CIFAR-10'].maxPerRole);
    expect(table4.training.augment).toBeUndefined();
    // Texas keeps the plan of the other tables; Purchase has its own (below).
    expect(columnConfig('Texas-100', 'cpu').partition.maxPerRole).toBe(CPU_PLAN.columns['Texas-100'].maxPerRole);
  });

  it('the budget is the plan at the pilot’s measured cost and fits 90 minutes cold with 2 workers', () => {
    const e = CPU_PLAN.core['CIFAR-10']!.training['epochs'];
    const counts = TABLE1_BUDGET.trainings.map((t) => t.count);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3 * seedsAt('cpu'));
    for (const t of TABLE1_BUDGET.trainings) expect(t.epochs).toBe(e);
    expect(TABLE1_BUDGET.workers).toBe(2);
    for (const t of TABLE1_BUDGET.trainings) expect(t.secondsPerEpoch / TABLE1_PILOT.secondsPerEpoch).toBeGreaterThanOrEqual(1);
    expect(budgetMinutes(TABLE1_BUDGET)).toBeLessThanOrEqual(90);
  });

  it("ρ's candidates are trained with the anchor's own plan (docs/protocol.md §5.3): the same partition, model, training and checkpoint rule", () => {
    const table = columnConfig('CIFAR-10', 'cpu', coreDefenses('CIFAR-10', 'cpu'), 'core');
    const sweep = rhoSelectionConfig();
    for (const key of ['dataset', 'partition', 'model', 'training', 'seed', 'attacks'] as const) expect(sweep[key]).toEqual(table[key]);
    expect(sweep.defenses.map((d) => d.label)).toEqual(['SGD', 'SAM']);
    expect(sweep.defenses[1]!.grid).toEqual({ rho: [...SAM_RHO_SELECTION.grid] });
  });
});

describe('the stand-in columns at cpu scale: sized out of saturation where a size does it', () => {
  it('Purchase: 10,000 members per role in Tables 1–3 (the size whose pilot was not saturated); Table 4 and Fig. 3 keep the earlier 2,000', () => {
    const core = columnConfig('Purchase-100', 'cpu');
    expect(core.partition).toEqual({ preset: 'CCL5', maxPerRole: 10_000, validation: 1000 });
    // CCL5's five roles and the validation slice fit in the records.
    expect(core.dataset.size).toBeGreaterThanOrEqual(5 * 10_000 + 1000);
    expect(core.model).toEqual({ name: 'mlp', options: { hidden: [1024, 512, 256, 128] } });
    const table4 = columnConfig('Purchase-100', 'cpu', coreDefenses('Purchase-100', 'cpu'), 'table4');
    expect(table4.partition.maxPerRole).toBe(2000);
    for (const key of ['model', 'training'] as const) expect(table4[key]).toEqual(core[key]);
    expect(Object.keys(STAND_IN_PILOT.measured).some((k) => k.startsWith('Purchase, 10,000 members'))).toBe(true);
    // Fig. 3's influence estimator trains 24 more models on its column: its own, smaller plan (a run of its own name).
    const fig3 = columnConfig('Purchase-100', 'cpu', coreDefenses('Purchase-100', 'cpu'), 'fig3');
    expect(fig3.partition.maxPerRole).toBe(2000);
    expect(fig3.name).toBe('sam-purchase100-cpu-fig3');
    expect(fig3.defenses).toEqual(core.defenses);
  });

  it('Texas keeps its 2,000-member plan, with the pilots that show every size tried saturates recorded', () => {
    expect(columnConfig('Texas-100', 'cpu').partition.maxPerRole).toBe(2000);
    const texas = Object.entries(STAND_IN_PILOT.measured).filter(([k]) => k.startsWith('Texas'));
    expect(texas.length).toBeGreaterThanOrEqual(3);
    for (const [, v] of texas) expect(v).toMatch(/saturated/);
  });
});
