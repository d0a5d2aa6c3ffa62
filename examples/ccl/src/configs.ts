import { parseExperimentConfig, type DefenseConfig, type ExperimentConfig } from '@mia/experiments';
import { type NotRun, type ReproductionScale } from '@mia/experiments/reproduce';
import { CPU_PLAN, type ReducedSetup } from './cpu-plan';

/** The datasets of CCL Table 1 that the runner knows (ImageNet is out of scope, docs/protocol.md A36). */
export type CclDataset = 'texas' | 'purchase' | 'cifar10' | 'cifar100';

/** The attacks of the CCL protocol that the runner implements (docs/protocol.md §3.1–3.2, A31). */
export const CCL_ATTACKS: readonly string[] = ['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy', 'nn-mlh'];

/** ImageNet column: never run here. */
export const IMAGENET_NOT_RUN: NotRun = {
  notRun: 'not run: ImageNet (DenseNet-121, 90 epochs) is out of scope for TF.js on this machine (docs/protocol.md A36)',
};

/** The augmentation attacks of CCL §5.1 (rotation ±4°, translation d = 1, CCLr's defaults; docs/protocol.md §3.3), run on image data. */
export const AUGMENTATION_ATTACKS: readonly string[] = ['rotation', 'translation'];

/** Whether a dataset is images (the augmentation attacks apply). */
export const isImageDataset = (dataset: CclDataset): boolean => dataset === 'cifar10' || dataset === 'cifar100';

/** The attacks of a dataset: {@link CCL_ATTACKS}, plus the augmentation attacks on images. */
export const attacksOf = (dataset: CclDataset): string[] => (isImageDataset(dataset) ? [...CCL_ATTACKS, ...AUGMENTATION_ATTACKS] : [...CCL_ATTACKS]);

/** Why the augmentation attacks have no value on a tabular dataset. */
export const AUGMENTATION_NOT_APPLICABLE =
  'not applicable: the augmentation attacks (docs/protocol.md §3.3) query rotated/translated images, and this dataset is tabular';

/**
 * The paper's per-dataset setup (CCL §5.1, App. E.1; docs/protocol.md §2.2). The CIFAR models have
 * torchvision's ImageNet stem (7×7 stride-2 conv + max-pool), as CCLr's `get_target_model` builds
 * them (docs/protocol.md §2.2, §6 item 6): ResNet-34 with `stem: 'imagenet'`; DenseNet-121's default stem is already that one.
 */
const PAPER = {
  texas: { dataset: 'texas100', model: 'mlp', epochs: 120, milestones: [50, 100], beta: 1, options: {} },
  purchase: { dataset: 'purchase100', model: 'mlp', epochs: 120, milestones: [50, 100], beta: 1, options: {} },
  cifar10: { dataset: 'cifar10', model: 'resnet34', epochs: 300, milestones: [150, 225], beta: 0.01, options: { stem: 'imagenet' } },
  cifar100: { dataset: 'cifar100', model: 'densenet121', epochs: 300, milestones: [150, 225], beta: 0.05, options: {} },
} as const;

/** A smoke-scale tabular stand-in: 800 records, a one-layer MLP, 3 epochs. */
const smokeTabular = (dataset: string): ReducedSetup => ({
  dataset,
  size: 800,
  maxPerRole: 150,
  validation: 40,
  model: { name: 'mlp', options: { hidden: [32] } },
  epochs: 3,
  batchSize: 50,
  lr: 0.1,
});

/**
 * Reduced scales: `cpu` is {@link CPU_PLAN} (Table 1 in the paper's regime, the figures smaller);
 * `smoke`: a few hundred examples, 1–3 epochs.
 */
const SMOKE: Record<CclDataset, ReducedSetup> = {
  texas: smokeTabular('texasLike'),
  purchase: smokeTabular('purchaseLike'),
  cifar10: {
    dataset: 'cifar10',
    maxPerRole: 40,
    validation: 40,
    model: { name: 'small-cnn', options: {} },
    epochs: 2,
    batchSize: 40,
    lr: 0.05,
  },
  cifar100: {
    dataset: 'cifar100',
    maxPerRole: 40,
    validation: 40,
    model: { name: 'small-cnn', options: {} },
    epochs: 1,
    batchSize: 40,
    lr: 0.05,
  },
};

/** The reduced-scale setup of a dataset for Table 1 or for the figures. */
export function reducedSetup(scale: 'smoke' | 'cpu', dataset: CclDataset, use: 'table1' | 'figures' = 'figures'): ReducedSetup {
  if (scale === 'smoke') return use === 'table1' ? SMOKE[dataset] : { ...SMOKE[dataset], validation: undefined };
  return CPU_PLAN[use][dataset];
}

/** Options of {@link baseConfig}. */
export interface BaseConfigOptions {
  /** CCL4 for standard training, CCL5 for defenses that need a reference set (AdvReg, Mixup+MMD). @default 'CCL4' */
  readonly preset?: 'CCL4' | 'CCL5';
  /** With `--data-dir`, the cpu scale uses the real Purchase100/Texas100 instead of the stand-ins. */
  readonly dataDir?: string;
  /** Extra model options (e.g. `dropout`). */
  readonly modelOptions?: Record<string, unknown>;
  /** Stops after this many epochs of the run (early-stopping checkpoints; the schedule stays the full run's). */
  readonly epochs?: number;
  /** Reduced scales: the full run's length (milestones follow it) and batch size instead of the defaults. */
  readonly run?: { readonly epochs: number; readonly batchSize: number };
  readonly attacks?: readonly string[];
  /** Reduced scales: Table 1's sizes (with the validation slice) or the figures' ({@link CPU_PLAN}). @default 'figures' */
  readonly use?: 'table1' | 'figures';
}

/**
 * The experiment config of one dataset at one scale with the given defenses: at `paper` scale the
 * paper's dataset, model, 120/300 epochs, SGD 0.1 (momentum 0.9, wd 5e-4, batch 128, ×0.1 at the
 * milestones); at reduced scales the sizes of {@link REDUCED} with the milestones at the same fractions.
 * @see docs/protocol.md §1.3, §2.2, §7 (CCL preset)
 */
export function baseConfig(
  name: string,
  dataset: CclDataset,
  scale: ReproductionScale,
  defenses: readonly DefenseConfig[],
  options: BaseConfigOptions = {},
): ExperimentConfig {
  const paper = PAPER[dataset];
  const preset = options.preset ?? 'CCL4';
  const attacks = options.attacks ?? attacksOf(dataset);
  const augmentation = { rotationDegrees: 4, translationDistance: 1 };
  if (scale === 'paper') {
    return parseExperimentConfig(
      {
        name,
        scale,
        seed: 0,
        dataset: { name: paper.dataset },
        partition: { preset },
        model: { name: paper.model, options: { ...paper.options, ...options.modelOptions } },
        training: {
          epochs: options.epochs ?? paper.epochs,
          batchSize: 128,
          lr: 0.1,
          momentum: 0.9,
          weightDecay: 5e-4,
          schedule: { type: 'multistep', milestones: [...paper.milestones], gamma: 0.1 },
        },
        defenses,
        attacks,
        augmentation,
      },
      name,
    );
  }
  const r = reducedSetup(scale, dataset, options.use);
  const real = options.dataDir !== undefined && (dataset === 'texas' || dataset === 'purchase');
  const runEpochs = options.run?.epochs ?? r.epochs;
  const epochs = options.epochs ?? runEpochs;
  // Milestones at the paper's fractions of the full run (50/120, 100/120), computed from the full run's length.
  const milestones = paper.milestones.map((m) => Math.max(1, Math.round((m / paper.epochs) * runEpochs)));
  return parseExperimentConfig(
    {
      name,
      scale,
      seed: 0,
      dataset: real ? { name: paper.dataset } : { name: r.dataset, ...(r.size === undefined ? {} : { size: r.size }) },
      partition: { preset, maxPerRole: r.maxPerRole, validation: r.validation },
      model: { name: r.model.name, options: { ...r.model.options, ...options.modelOptions } },
      training: {
        epochs,
        batchSize: options.run?.batchSize ?? r.batchSize,
        lr: r.lr,
        momentum: 0.9,
        weightDecay: 5e-4,
        schedule: r.schedule === 'cosine' ? { type: 'cosine' as const } : { type: 'multistep' as const, milestones, gamma: 0.1 },
        ...(r.augment === undefined ? {} : { augment: { ...r.augment } }),
      },
      defenses,
      attacks,
      augmentation,
      // One shadow per row, shared by the training seeds of the targets (docs/protocol.md §5.2).
      ...(r.sharedShadows === true ? { shadowSeed: 'partition' as const } : {}),
    },
    name,
  );
}

/**
 * β, the scale factor on CCL's whole loss (`scale` of the `ccl` defense): the paper's per dataset at
 * `paper` scale (App. E.1); at reduced scales the plan's (`beta`, default 1). Table 1's CIFAR-10
 * column at `cpu` scale keeps the paper's 0.01 (see {@link CPU_PLAN}); elsewhere β = 1, where the
 * paper's value would leave a few-epoch model untrained (with SGD's coupled weight decay, β scales
 * the data term's step by β and the decay's relative strength by 1/β, docs/protocol.md §4.2).
 */
export function cclBeta(dataset: CclDataset, scale: ReproductionScale, use: 'table1' | 'figures' = 'figures'): number {
  return scale === 'paper' ? PAPER[dataset].beta : (reducedSetup(scale, dataset, use).beta ?? 1);
}

/** The CCQL or CCEL defense at one α. @see docs/protocol.md §4.2 */
export function cclDefense(kind: 'CCQL' | 'CCEL', alpha: number, beta: number, label = `${kind} α=${alpha}`): DefenseConfig {
  return { name: 'ccl', label, params: { alpha, concave: kind === 'CCQL' ? 'quadratic' : 'exponential', scale: beta } };
}

/** The undefended model (cross-entropy). */
export const UNDEFENDED = (label = 'w/o'): DefenseConfig => ({ name: 'none', label, params: {} });
