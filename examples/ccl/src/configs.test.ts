import { prepareData } from '@mia/experiments';
import { describe, expect, it } from 'vitest';
import { baseConfig, cclBeta, cclDefense, reducedSetup } from './configs';
import { CPU_PLAN } from './cpu-plan';
import { baselineGrids } from './fig2-grids';
import { alphaGrid, alphaSweepDefenses } from './fig4';
import { EARLY_STOP_CONTROL, table1Defenses } from './table1';

describe("paper-scale configs are the paper's (CCL §5.1, App. E; docs/protocol.md §2.2, §4.17)", () => {
  it('Table 1: Texas100/Purchase100 MLPs 120 epochs ×0.1 at 50/100; CIFAR-10 ResNet-34 and CIFAR-100 DenseNet-121 300 epochs ×0.1 at 150/225; SGD 0.1, momentum 0.9, wd 5e-4, batch 128', () => {
    const expected = {
      texas: ['texas100', 'mlp', 120, [50, 100], 1],
      purchase: ['purchase100', 'mlp', 120, [50, 100], 1],
      cifar10: ['cifar10', 'resnet34', 300, [150, 225], 0.01],
      cifar100: ['cifar100', 'densenet121', 300, [150, 225], 0.05],
    } as const;
    for (const [dataset, [name, model, epochs, milestones, beta]] of Object.entries(expected)) {
      const c = baseConfig('t', dataset as keyof typeof expected, 'paper', table1Defenses(dataset as keyof typeof expected, 'paper'));
      expect(c.dataset).toEqual({ name });
      expect(c.partition).toEqual({ preset: 'CCL4' });
      expect(c.model.name).toBe(model);
      // torchvision's ImageNet stem, as CCLr builds the CIFAR models (docs/protocol.md §2.2, §6 item 6; DenseNet-121's default).
      expect(c.model.options).toEqual(model === 'resnet34' ? { stem: 'imagenet' } : {});
      expect(c.training).toMatchObject({
        epochs,
        batchSize: 128,
        optimizer: 'sgd',
        lr: 0.1,
        momentum: 0.9,
        weightDecay: 5e-4,
        schedule: { type: 'multistep', milestones, gamma: 0.1 },
      });
      expect(c.defenses.map((d) => [d.label, d.params])).toEqual([
        ['w/o', {}],
        ['CCQL', { alpha: 0.5, concave: 'quadratic', scale: beta }],
        ['CCEL', { alpha: 0.5, concave: 'exponential', scale: beta }],
      ]);
      const augmentation = dataset.startsWith('cifar') ? ['rotation', 'translation'] : [];
      expect(c.attacks).toEqual(['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy', 'nn-mlh', ...augmentation]);
      expect(c.augmentation).toEqual({ rotationDegrees: 4, translationDistance: 1 });
    }
  });

  it("Fig. 2 and Fig. 4: the α grid {0.1, …, 0.9} and the seven baselines' App. E.2 grids; early stopping at 25, 50, …, 275 of 300 epochs", () => {
    expect(alphaGrid('paper')).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
    expect(alphaSweepDefenses('cifar10', 'paper')).toHaveLength(19);
    const grids = Object.fromEntries(baselineGrids('paper', 'cifar10', 300).map((g) => [g.family, g.values]));
    expect(grids).toEqual({
      RelaxLoss: [0.01, 0.04, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2],
      'Mixup+MMD': [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 4, 8],
      AdvReg: [0.8, 1.0, 1.2, 1.4, 1.6, 1.8],
      Dropout: [0.01, 0.02, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9],
      'Label smoothing': [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
      'Confidence penalty': [0.1, 0.3, 0.5, 1, 2, 4, 8],
      'Early stopping': [25, 50, 75, 100, 125, 150, 175, 200, 225, 250, 275],
    });
    const relax = baselineGrids('paper', 'purchase', 120).find((g) => g.family === 'RelaxLoss')!;
    expect(relax.defense!(0.8, 'x').params).toEqual({ alpha: 0.8, upper: 0.3, variant: 'tabular' });
  });

  it("reduced scales keep the milestones at the paper's fractions, use β = 1 and the stand-ins unless --data-dir is given; CCL5 on request", () => {
    const c = baseConfig('t', 'purchase', 'cpu', [cclDefense('CCQL', 0.5, cclBeta('purchase', 'cpu'))]);
    expect(c.dataset.name).toBe('purchaseLike');
    expect(c.training.schedule).toEqual({ type: 'multistep', milestones: [8, 17], gamma: 0.1 });
    expect(c.defenses[0]!.params.scale).toBe(1);
    expect(baseConfig('t', 'texas', 'cpu', [cclDefense('CCEL', 0.5, 1)], { dataDir: '/data' }).dataset).toEqual({ name: 'texas100' });
    expect(baseConfig('t', 'cifar10', 'cpu', [cclDefense('CCEL', 0.5, 1)], { preset: 'CCL5' }).partition.preset).toBe('CCL5');
    // Early-stopping checkpoints keep the full run's schedule; a longer run moves the milestones with it.
    expect(baseConfig('t', 'purchase', 'cpu', [cclDefense('CCEL', 0.5, 1)], { epochs: 5 }).training).toMatchObject({
      epochs: 5,
      schedule: { milestones: [8, 17] },
    });
    expect(baseConfig('t', 'cifar10', 'cpu', [cclDefense('CCEL', 0.5, 1)], { run: { epochs: 15, batchSize: 32 } }).training).toMatchObject({
      epochs: 15,
      batchSize: 32,
      schedule: { milestones: [8, 11] },
    });
    expect(() => baseConfig('bad name!', 'texas', 'cpu', [cclDefense('CCEL', 0.5, 1)])).toThrow(
      /bad name!: invalid experiment config:\n {2}name: expected letters, digits, ".", "_" or "-", got "bad name!"/,
    );
  });
});

describe("cpu plan (Table 1 in the paper's regime with an early-stopping control)", () => {
  const ROLE_SIZE: Readonly<Record<string, number>> = { cifar10: 60_000 / 4, cifar100: 60_000 / 4 };

  it('Table 1 uses CPU_PLAN.table1 (thousands of members, a validation slice beside the capped target_test); the figures keep CPU_PLAN.figures (Purchase with its own validation slice for the choosers of Fig. 2)', () => {
    for (const dataset of ['texas', 'purchase', 'cifar10', 'cifar100'] as const) {
      const plan = CPU_PLAN.table1[dataset];
      expect(reducedSetup('cpu', dataset, 'table1')).toBe(plan);
      expect(plan.maxPerRole).toBeGreaterThanOrEqual(2500);
      const roleSize = plan.size === undefined ? ROLE_SIZE[dataset]! : Math.floor(plan.size / 4);
      expect(plan.maxPerRole + plan.validation!, dataset).toBeLessThanOrEqual(roleSize);
      const c = baseConfig('t', dataset, 'cpu', table1Defenses(dataset, 'cpu'), { use: 'table1' });
      expect(c.partition).toEqual({ preset: 'CCL4', maxPerRole: plan.maxPerRole, validation: plan.validation });
      expect(c.training.epochs).toBe(plan.epochs);
      const figures = CPU_PLAN.figures[dataset];
      expect(baseConfig('t', dataset, 'cpu', [cclDefense('CCEL', 0.5, 1)]).partition).toEqual({
        preset: 'CCL4',
        maxPerRole: figures.maxPerRole,
        ...(figures.validation === undefined ? {} : { validation: figures.validation }),
      });
    }
  });

  it('Table 1 has the early-stopping control when given its epoch (read off the validation curve), not otherwise', () => {
    const defenses = table1Defenses('cifar10', 'cpu', 17);
    expect(defenses.map((d) => d.label)).toEqual(['w/o', 'CCQL', 'CCEL', EARLY_STOP_CONTROL]);
    expect(defenses[3]).toEqual({ name: 'early-stop', label: EARLY_STOP_CONTROL, params: { epochs: 17 } });
    expect(table1Defenses('cifar10', 'paper').map((d) => d.label)).toEqual(['w/o', 'CCQL', 'CCEL']);
  });

  it('the validation slice is disjoint from every trained-on or attacked role (purchase stand-in, real partition)', async () => {
    const data = await prepareData(baseConfig('t', 'purchase', 'cpu', table1Defenses('purchase', 'cpu'), { use: 'table1' }));
    const { validation, ...others } = data.partition.roles;
    expect(validation).toHaveLength(CPU_PLAN.table1.purchase.validation!);
    const used = new Set(Object.values(others).flat());
    expect(validation!.filter((i) => used.has(i))).toEqual([]);
  });
});
