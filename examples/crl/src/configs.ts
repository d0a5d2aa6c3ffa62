import { parseExperimentConfig, type ExperimentConfig } from '@mia/experiments';
import { type ReproductionScale } from '@mia/experiments/reproduce';
import type { Approach } from './paper-values';

/** The datasets of the CRL paper (§5.1) and the model groups of its Table 1a–c. */
export const CRL_DATASETS = {
  cifar10: { label: 'CIFAR-10', table: 'Table 1a', models: ['VGG11', 'ResNet18', 'DenseNet121'] },
  cifar100: { label: 'CIFAR-100', table: 'Table 1b', models: ['GoogLeNet', 'ResNet18', 'DenseNet121'] },
  svhn: { label: 'SVHN', table: 'Table 1c', models: ['VGG11', 'ResNet18'] },
} as const;
export type CrlDataset = keyof typeof CRL_DATASETS;

/** The paper's model row that runs at the reduced scales (ResNet18: in every table and in Fig. 7). */
export const REDUCED_MODEL = 'ResNet18';

interface ModelPlan {
  readonly model: { readonly name: string; readonly options: Record<string, unknown> };
  readonly epochs: number;
  readonly batchSize: number;
  readonly lr: number;
  readonly milestones: readonly number[];
  readonly gamma: number;
}

const plan = (name: string, options: Record<string, unknown>, epochs: number, batchSize: number, lr: number, milestones: number[], gamma = 0.1): ModelPlan =>
  ({ model: { name, options }, epochs, batchSize, lr, milestones, gamma });

/**
 * Paper-scale training per (dataset, model), from CRLr `conf/train/*.yml` (docs/protocol.md §2.6): SGD,
 * momentum 0.9, wd 5e-4, batch 256 (32 for DenseNet121), the piecewise-constant LR as a multistep
 * schedule. Two are approximations: cifar10_vgg (0.05 → 0.01 → 0.005 → 0.001 at 50/80/100) becomes
 * ×0.2 at 50/80/100, and cifar100_resnet's one warm-up epoch at 0.01 is dropped.
 */
export const PAPER_PLANS: Readonly<Record<CrlDataset, Readonly<Record<string, ModelPlan>>>> = {
  cifar10: {
    VGG11: plan('vgg11-bn', {}, 120, 256, 0.05, [50, 80, 100], 0.2),
    ResNet18: plan('resnet18', { stem: 'cifar' }, 100, 256, 0.01, [50, 80]),
    DenseNet121: plan('densenet121', { stem: 'cifar' }, 50, 32, 0.1, [20, 40]),
  },
  cifar100: {
    GoogLeNet: plan('googlenet', {}, 80, 256, 0.1, [40, 60]),
    ResNet18: plan('resnet18', { stem: 'cifar' }, 100, 256, 0.1, [50, 80]),
    DenseNet121: plan('densenet121', { stem: 'cifar' }, 100, 32, 0.1, [40, 70, 90]),
  },
  svhn: {
    VGG11: plan('vgg11-bn', {}, 40, 256, 0.1, [10, 30]),
    ResNet18: plan('resnet18', { stem: 'cifar' }, 40, 256, 0.1, [10, 30]),
  },
};

/**
 * Reduced scales: the ResNet18 row only, as `resnet-narrow` (the ResNet-18 topology with a CIFAR stem)
 * at width 4 (smoke) or 8 (cpu; ≈3.7 s per batch of 128 on this loaded 2-core machine, so a table of
 * 8 models fits the 60-minute budget), and `maxPerRole` examples per partition role.
 */
const REDUCED: Readonly<Record<'smoke' | 'cpu', { plan: ModelPlan; maxPerRole: number }>> = {
  smoke: { plan: plan('resnet-narrow', { width: 4 }, 2, 32, 0.05, [1]), maxPerRole: 64 },
  cpu: { plan: plan('resnet-narrow', { width: 8 }, 20, 100, 0.1, [10, 16]), maxPerRole: 250 },
};

/** Why a (dataset, model) group does not run at a scale, or undefined when it does. */
export function skippedAt(scale: ReproductionScale, model: string): string | undefined {
  if (scale === 'paper' || model === REDUCED_MODEL) return undefined;
  return `not run at scale '${scale}': only the ${REDUCED_MODEL} rows fit this scale's budget on a 2-core CPU (run --scale paper for ${model})`;
}

/** RelaxLoss/CRL CE threshold α per dataset (RL configs: CIFAR-10 resnet20 α = 1, CIFAR-100 α = 3; SVHN: none published, 1). */
const ALPHA: Readonly<Record<CrlDataset, number>> = { cifar10: 1, cifar100: 3, svhn: 1 };

/** One level of the relaxation thresholds (α_rce, α_rcl), scaled to a dataset's base α. */
export interface RelaxLevel {
  readonly alpha: number;
  readonly alphaCenter: number;
}

/** The base relaxation level of a dataset (used by Table 1 and shared with Fig. 7, so those models are trained once). */
export const baseLevel = (dataset: CrlDataset): RelaxLevel => ({ alpha: ALPHA[dataset], alphaCenter: 0.1 });

/**
 * CRL's parameters: the paper publishes none, so docs/protocol.md A18's grid: t = t_cl = 0.05, λ = 0.1,
 * upper = upper_cl = 1 (defaults), lr_c = 0.001 (the paper's).
 */
export const crlParams = (level: RelaxLevel, components: 'crl' | 'impRelaxLoss' | 'relaxedCenterLoss' = 'crl') =>
  ({ alpha: level.alpha, alphaCenter: level.alphaCenter, t: 0.05, tCenter: 0.05, lambda: 0.1, components });

/** The four approaches of Table 1 as runner defenses (docs/protocol.md §4.3, §4.5, §4.7). */
export function table1Defenses(dataset: CrlDataset, scale: ReproductionScale): ExperimentConfig['defenses'] {
  // AdvReg, MLHospital schedule: 4 private warm-up epochs at paper scale; fewer at the reduced scales.
  const warmup = scale === 'paper' ? {} : { warmupEpochs: scale === 'smoke' ? 1 : 2 };
  const labelled: Record<Approach, { name: string; params: Record<string, unknown> }> = {
    CE: { name: 'none', params: {} },
    AdvReg: { name: 'advreg', params: { alpha: 1, ...warmup } },
    RelaxLoss: { name: 'relaxloss', params: { alpha: ALPHA[dataset], upper: 1, variant: 'image' } },
    CRL: { name: 'crl', params: crlParams(baseLevel(dataset)) },
  };
  return Object.entries(labelled).map(([label, d]) => ({ label, ...d }));
}

/** The training plan and cap of a (dataset, model) group at a scale. */
export function planOf(dataset: CrlDataset, model: string, scale: ReproductionScale): { plan: ModelPlan; maxPerRole?: number } {
  if (scale === 'paper') {
    const p = PAPER_PLANS[dataset][model];
    if (p === undefined) throw new Error(`planOf: no ${model} in the paper's ${dataset} table`);
    return { plan: p };
  }
  return REDUCED[scale];
}

/**
 * The runner config of one (dataset, model) group of Table 1 (or Fig. 7 with other defenses): CCL5
 * partition (target/shadow halves plus a disjoint inference set that AdvReg needs), one adaptive
 * shadow, attacks NN-CRL, entropy and m-entropy (Grad-x is computed separately on the loaded models).
 * @see docs/protocol.md §1.6, §2.6, §3.2 (NN-CRL), §3.7.
 */
export function groupConfig(dataset: CrlDataset, model: string, scale: ReproductionScale, defenses?: ExperimentConfig['defenses']): ExperimentConfig {
  const { plan: p, maxPerRole } = planOf(dataset, model, scale);
  return parseExperimentConfig({
    name: `crl-${dataset}-${model.toLowerCase()}-${scale}`,
    scale,
    seed: 0,
    dataset: { name: dataset },
    partition: { preset: 'CCL5', ...(maxPerRole === undefined ? {} : { maxPerRole }) },
    model: p.model,
    training: {
      epochs: p.epochs, batchSize: p.batchSize, optimizer: 'sgd', lr: p.lr, momentum: 0.9, weightDecay: 5e-4,
      schedule: { type: 'multistep', milestones: [...p.milestones], gamma: p.gamma },
    },
    defenses: defenses ?? table1Defenses(dataset, scale),
    attacks: ['nn-crl', 'entropy', 'modifiedEntropy'],
  }, `crl ${dataset}/${model}`);
}

/** Deviations from the paper every CRL reproduction shares (for the report's notes). */
export const SHARED_NOTES: readonly string[] = [
  'NN-Based = NN-CRL (softmax ⊕ one-hot, MLP 128-64-64-2, docs/protocol.md §3.2) trained on ONE adaptive shadow model; the paper pools k = 5 shadow models.',
  'Partition: CCL5 (equal target-train, target-test, inference, shadow-train, shadow-test slices); the paper splits 50/50 target/shadow then 50/50 train/test (15 000 members on CIFAR) and carves AdvReg\'s reference set from the training half.',
  'Entropy, M-Entropy and Grad-x ℓ2 AUCs are computed on the target members vs non-members directly (no threshold), as the paper states; Grad-x score = −‖∇ₓ CE‖₂ in eval mode.',
  'CRL hyperparameters are unpublished: α_rce = RelaxLoss\'s α, α_rcl = 0.1, t = t_cl = 0.05, λ = 0.1, lr_c = 0.001 (docs/protocol.md A18). AdvReg: MLHospital variant, α = 1.',
  'Inputs are scaled to [0, 1] (the paper normalises CIFAR by channel mean/std and augments CIFAR-100 with crop+flip; neither is a runner option).',
];
