import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { modelParameterCount } from '@mia/models';
import { budgetMinutes } from '@mia/experiments/reproduce';
import { beforeAll, describe, expect, it } from 'vitest';
import { CPU_PLAN, CRL_SHADOW_MODELS, EARLIER_CPU_PLAN, LAMBDA_SELECTION, TABLE1_BUDGET, TABLE1_PILOT, groupConfig, lambdaSelectionConfig } from './configs';
import { fig7Defenses } from './fig7';
import { APPROACHES } from './paper-values';

const parameters = (name: string, options: Record<string, unknown>) =>
  modelParameterCount(name, { ...options, numClasses: 10, inputShape: [32, 32, 3], seed: 0 });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe("CRL Table 1a's ResNet18 rows: the paper's plan at paper scale, the anchor plan at cpu scale", () => {
  it("paper scale: the authors' CIFAR-stem ResNet-18 (width 64, ≈ 11.2 M parameters) constructs, without augmentation on CIFAR-10", () => {
    const c = groupConfig('cifar10', 'ResNet18', 'paper');
    expect(c.model).toEqual({ name: 'resnet18', options: { stem: 'cifar' } });
    const n = parameters(c.model.name, c.model.options);
    expect(n).toBeGreaterThan(11.1e6);
    expect(n).toBeLessThan(11.3e6);
    expect(c.training.augment).toBeUndefined();
    expect(c.shadowSeed).toBeUndefined();
    expect(c.shadowModels).toBe(CRL_SHADOW_MODELS);
  });

  it('cpu scale: ResNet-18 at width 32, ≥ 5,000 members, no augmentation (§5.1), 40 epochs (measured to fit every seed), 3 seeds sharing 2 pooled shadows per approach', () => {
    const c = groupConfig('cifar10', 'ResNet18', 'cpu');
    expect(c.model).toEqual({ name: 'resnet18', options: { stem: 'imagenet', width: 32 } });
    expect(c.partition.maxPerRole).toBeGreaterThanOrEqual(5000);
    expect(c.partition.validation).toBe(1000);
    expect(c.training.augment).toBeUndefined();
    expect(c.training).toMatchObject({ epochs: 40, lr: 0.05, schedule: { type: 'cosine' } });
    expect(c.shadowModels).toBe(CPU_PLAN.shadowModels);
    expect(CPU_PLAN.shadowModels).toBe(2);
    expect(c.shadowSeed).toBe('partition');
    expect(CPU_PLAN.seeds).toBe(3);
    // Fig. 7 runs on the same plan (its models at level 1 are Table 1a's CRL models).
    const fig7 = groupConfig('cifar10', 'ResNet18', 'cpu', fig7Defenses('cifar10', 'cpu'));
    for (const key of ['dataset', 'partition', 'model', 'training', 'shadowModels', 'shadowSeed'] as const) expect(fig7[key]).toEqual(c[key]);
    const crl = c.defenses.find((d) => d.label === 'CRL')!;
    expect(fig7.defenses.filter((d) => JSON.stringify(d.params) === JSON.stringify(crl.params))).toHaveLength(1);
    expect(EARLIER_CPU_PLAN.plan.epochs).toBe(20);
  });

  it('the budget is the plan at the pilot’s measured cost and fits 90 minutes cold with 2 workers', () => {
    const counts = TABLE1_BUDGET.trainings.map((t) => t.count);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(APPROACHES.length * (CPU_PLAN.seeds! + CPU_PLAN.shadowModels!));
    expect(CRL_SHADOW_MODELS).toBe(5); // the paper's, at paper scale and for Fig. 7
    for (const t of TABLE1_BUDGET.trainings) expect(t.epochs).toBe(CPU_PLAN.plan.epochs);
    expect(TABLE1_BUDGET.workers).toBe(2);
    for (const t of TABLE1_BUDGET.trainings) expect(t.secondsPerEpoch / TABLE1_PILOT.secondsPerEpoch).toBeGreaterThanOrEqual(1);
    expect(budgetMinutes(TABLE1_BUDGET)).toBeLessThanOrEqual(90);
  });

  it("λ's candidates are trained with the table's own plan (docs/protocol.md §5.3): the same partition, model and training, targets only", () => {
    const table = groupConfig('cifar10', 'ResNet18', 'cpu');
    const sweep = lambdaSelectionConfig();
    for (const key of ['dataset', 'partition', 'model', 'training', 'seed'] as const) expect(sweep[key]).toEqual(table[key]);
    expect(sweep.attacks).toEqual([]);
    expect(sweep.defenses.map((d) => d.label)).toEqual(['CE', 'CRL']);
    expect(sweep.defenses[1]!.grid).toEqual({ lambda: [...LAMBDA_SELECTION.grid] });
    expect(sweep.defenses[1]!.params).toEqual(table.defenses.find((d) => d.label === 'CRL')!.params);
  });
});
