import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { modelParameterCount } from '@mia/models';
import { budgetMinutes } from '@mia/experiments/reproduce';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseConfig, cclBeta } from './configs';
import { CPU_PLAN, TABLE1_BUDGET, TABLE1_PILOT } from './cpu-plan';
import { table1Defenses } from './table1';

const parameters = (name: string, options: Record<string, unknown>) =>
  modelParameterCount(name, { ...options, numClasses: 10, inputShape: [32, 32, 3], seed: 0 });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe("CCL Table 1's CIFAR-10 column: the paper's plan at paper scale, the anchor plan at cpu scale", () => {
  it("paper scale: the paper's ResNet-34 (torchvision stem, width 64, ≈ 21.3 M parameters) constructs, at β = 0.01 (App. E.1)", () => {
    const c = baseConfig('t', 'cifar10', 'paper', table1Defenses('cifar10', 'paper'));
    expect(c.model).toEqual({ name: 'resnet34', options: { stem: 'imagenet' } });
    const n = parameters(c.model.name, c.model.options);
    expect(n).toBeGreaterThan(21.2e6);
    expect(n).toBeLessThan(21.4e6);
    expect(c.training.augment).toBeUndefined();
  });

  it("cpu scale: the paper's ResNet family at width 32 (ResNet-18: ResNet-34 does not fit the budget), ≥ 5,000 members, the schedule measured to fit, the paper's β, 3 seeds, shared shadows", () => {
    const plan = CPU_PLAN.table1.cifar10;
    const c = baseConfig('t', 'cifar10', 'cpu', table1Defenses('cifar10', 'cpu'), { use: 'table1' });
    expect(c.model).toEqual({ name: 'resnet18', options: { stem: 'imagenet', width: 32 } });
    expect(parameters(c.model.name, c.model.options)).toBeLessThan(21.3e6 / 3);
    expect(c.partition.maxPerRole).toBeGreaterThanOrEqual(5000);
    expect(c.training).toMatchObject({ epochs: plan.epochs, lr: 0.05, batchSize: 128, schedule: { type: 'cosine' } });
    // No augmentation: the paper reports none, and with crop + flip the model does not fit in the budget (TABLE1_PILOT).
    expect(c.training.augment).toBeUndefined();
    expect(cclBeta('cifar10', 'cpu', 'table1')).toBe(0.01);
    expect(c.defenses.filter((d) => d.name === 'ccl').map((d) => d.params['scale'])).toEqual([0.01, 0.01]);
    expect(plan.seeds).toBe(3);
    expect(c.shadowSeed).toBe('partition');
    // The figures keep β = 1 and the paper's steps (their committed results stay those of their configs).
    expect(cclBeta('cifar10', 'cpu')).toBe(1);
    expect(baseConfig('t', 'cifar10', 'cpu', table1Defenses('cifar10', 'cpu')).training.schedule).toMatchObject({ type: 'multistep' });
  });

  it('the budget is the plan at the pilot’s measured cost and fits 90 minutes cold with 2 workers', () => {
    const plan = CPU_PLAN.table1.cifar10;
    const rows = 4; // w/o, CCQL, CCEL, the early-stop control
    const counts = TABLE1_BUDGET.trainings.map((t) => t.count);
    // Targets: every row per seed; shadows: one per row shared by the seeds, but the control's per seed (its epoch is each seed's own).
    expect(counts.reduce((a, b) => a + b, 0)).toBe(rows * plan.seeds! + (rows - 1) + plan.seeds!);
    for (const t of TABLE1_BUDGET.trainings) expect(t.epochs).toBe(plan.epochs);
    expect(TABLE1_BUDGET.workers).toBe(2);
    expect(TABLE1_BUDGET.trainings.every((t) => t.secondsPerEpoch === TABLE1_PILOT.secondsPerEpoch)).toBe(true);
    expect(budgetMinutes(TABLE1_BUDGET)).toBeLessThanOrEqual(90);
    expect(budgetMinutes({ trainings: [{ what: 'x', count: 3, epochs: 10, secondsPerEpoch: 4 }], workers: 2, otherMinutes: 1 })).toBe(2);
  });
});
