import { parseExperimentConfig, type ExperimentConfig } from '@mia/experiments';
import { type NotRun, type ReproductionScale } from '@mia/experiments/reproduce';
import { CPU_PLAN } from './cpu-plan';

/** The datasets of PAST Table 1 (columns, in the paper's order). */
export type PastDatasetKey = 'texas' | 'purchase' | 'cifar10' | 'cifar100' | 'imagenet';

/** The column names of PAST Table 1, as printed in the paper. */
export const DATASET_COLUMNS: Readonly<Record<PastDatasetKey, string>> = {
  texas: 'Texas',
  purchase: 'Purchase',
  cifar10: 'CIFAR-10',
  cifar100: 'CIFAR-100',
  imagenet: 'ImageNet',
};

/** The number of classes of each dataset (the chance level of the regime gate). */
export const DATASET_CLASSES: Readonly<Record<PastDatasetKey, number>> = { texas: 100, purchase: 100, cifar10: 10, cifar100: 100, imagenet: 1000 };

/** Everything a PAST experiment on one dataset needs at one scale (docs/protocol.md §2.1, §7). */
export interface DatasetSetup {
  readonly key: PastDatasetKey;
  readonly dataset: { readonly name: string; readonly size?: number };
  readonly maxPerRole?: number;
  /** A validation slice cut from target_inference (partition.validation), on which λ is chosen (docs/protocol.md A11). */
  readonly validation?: number;
  readonly model: { readonly name: string; readonly options: Record<string, unknown> };
  readonly training: {
    readonly epochs: number;
    readonly batchSize: number;
    readonly lr: number;
    /** Random crop (from a zero pad of `crop` pixels) + horizontal flip of training batches; absent: none. */
    readonly augment?: { readonly crop: number; readonly flip: boolean };
  };
  /** Training seeds per compared model (docs/protocol.md §5.2); absent: one. */
  readonly seeds?: number;
  /** PAST's tuning phase: λ per dataset (§2.1), tuning epochs, α of Table 1. */
  readonly past: { readonly lambda: number; readonly tuneEpochs: number; readonly alpha: number };
  /** Image or tabular data (RelaxLoss variant, docs/protocol.md A20). */
  readonly kind: 'image' | 'tabular';
}

/** The attacks of the PAST protocol on every dataset (docs/protocol.md §7 "PAST preset"). */
export const PAST_ATTACKS: readonly string[] = ['nn-mlh', 'correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy'];

/** The augmentation attacks (docs/protocol.md §3.3), run on image data only; PASTr's rotation is ±1°, translation d = 1. */
export const AUGMENTATION_ATTACKS: readonly string[] = ['rotation', 'translation'];

/** The attacks of a setup: {@link PAST_ATTACKS}, plus the augmentation attacks on images. */
export function attacksOf(setup: DatasetSetup): string[] {
  return setup.kind === 'image' ? [...PAST_ATTACKS, ...AUGMENTATION_ATTACKS] : [...PAST_ATTACKS];
}

/** The paper's names of the attacks (Fig. 3 subplots), by runner attack name. */
export const ATTACK_LABELS: Readonly<Record<string, string>> = {
  'nn-mlh': 'NN',
  correctness: 'Correct',
  loss: 'Loss',
  confidence: 'Confidence',
  entropy: 'Entropy',
  modifiedEntropy: 'M-entropy',
  rotation: 'Rotation',
  translation: 'Translation',
};

/** Why an attack of the paper has no value for a setup (augmentation attacks on tabular data), or undefined when it runs. */
export function attackNotRun(setup: DatasetSetup, attack: string): string | undefined {
  return attacksOf(setup).includes(attack)
    ? undefined
    : `not applicable: the augmentation attack (docs/protocol.md §3.3) queries rotated/translated images, and this setup is tabular (${setup.dataset.name})`;
}

const IMAGENET_NOT_RUN: NotRun = { notRun: 'not run: ImageNet is out of scope for TF.js here (docs/protocol.md §7 A36)' };

// Paper scale: PAST §4.1 and docs/protocol.md §2.1 (phase 1: 100 epochs, SGD lr 0.01, batch 128, cosine);
// ResNet-18 with torchvision's ImageNet stem (7×7 stride-2 conv + max-pool), as the authors' code builds
// it (docs/protocol.md §2.1, §6 item 6); DenseNet-121's default stem is already torchvision's.
const PAPER: Record<Exclude<PastDatasetKey, 'imagenet'>, DatasetSetup> = {
  texas: {
    key: 'texas',
    dataset: { name: 'texas100' },
    model: { name: 'mlp', options: {} },
    training: { epochs: 100, batchSize: 128, lr: 0.01 },
    past: { lambda: 1e-5, tuneEpochs: 20, alpha: 2.5 },
    kind: 'tabular',
  },
  purchase: {
    key: 'purchase',
    dataset: { name: 'purchase100' },
    model: { name: 'mlp', options: {} },
    training: { epochs: 100, batchSize: 128, lr: 0.01 },
    past: { lambda: 1e-5, tuneEpochs: 20, alpha: 2.5 },
    kind: 'tabular',
  },
  cifar10: {
    key: 'cifar10',
    dataset: { name: 'cifar10' },
    model: { name: 'resnet18', options: { stem: 'imagenet' } },
    training: { epochs: 100, batchSize: 128, lr: 0.01 },
    past: { lambda: 1e-3, tuneEpochs: 50, alpha: 2.5 },
    kind: 'image',
  },
  cifar100: {
    key: 'cifar100',
    dataset: { name: 'cifar100' },
    model: { name: 'densenet121', options: {} },
    training: { epochs: 100, batchSize: 128, lr: 0.01 },
    past: { lambda: 1e-4, tuneEpochs: 20, alpha: 2.5 },
    kind: 'image',
  },
};

// Smoke scale: seconds; tiny MLPs on the stand-ins, a few CIFAR-10 images through small-cnn.
const SMOKE: Record<Exclude<PastDatasetKey, 'imagenet'>, DatasetSetup> = {
  texas: {
    key: 'texas',
    dataset: { name: 'texasLike', size: 300 },
    maxPerRole: 48,
    model: { name: 'mlp', options: { hidden: [16] } },
    training: { epochs: 2, batchSize: 32, lr: 0.1 },
    past: { lambda: 1e-3, tuneEpochs: 1, alpha: 2.5 },
    kind: 'tabular',
  },
  purchase: {
    key: 'purchase',
    dataset: { name: 'purchaseLike', size: 300 },
    maxPerRole: 48,
    model: { name: 'mlp', options: { hidden: [16] } },
    training: { epochs: 2, batchSize: 32, lr: 0.1 },
    past: { lambda: 1e-3, tuneEpochs: 1, alpha: 2.5 },
    kind: 'tabular',
  },
  cifar10: {
    key: 'cifar10',
    dataset: { name: 'cifar10' },
    maxPerRole: 32,
    model: { name: 'small-cnn', options: {} },
    training: { epochs: 1, batchSize: 32, lr: 0.05 },
    past: { lambda: 1e-3, tuneEpochs: 1, alpha: 2.5 },
    kind: 'image',
  },
  cifar100: {
    key: 'cifar100',
    dataset: { name: 'cifar100' },
    maxPerRole: 32,
    model: { name: 'small-cnn', options: {} },
    training: { epochs: 1, batchSize: 32, lr: 0.05 },
    past: { lambda: 1e-4, tuneEpochs: 1, alpha: 2.5 },
    kind: 'image',
  },
};

/**
 * The setup of a dataset at a scale, or why it cannot run at all (ImageNet).
 * @see docs/protocol.md §2.1 (paper values), §7 A36 (ImageNet out of scope)
 */
export function datasetSetup(key: PastDatasetKey, scale: ReproductionScale): DatasetSetup | NotRun {
  if (key === 'imagenet') return IMAGENET_NOT_RUN;
  return (scale === 'paper' ? PAPER : scale === 'cpu' ? CPU_PLAN.table1 : SMOKE)[key];
}

/**
 * Which dataset a figure/ablation runs on: the paper's at `paper` scale; at `cpu` and `smoke` the
 * Purchase stand-in (at `cpu` the smaller {@link CPU_PLAN}.ablation setup, not Table 1's) (its MLP is ~30× cheaper than CIFAR-10's CNN, which lets every grid point run
 * within the budget; the report notes the substitution).
 */
export function ablationSetup(paperKey: 'cifar10' | 'cifar100', scale: ReproductionScale): DatasetSetup {
  if (scale === 'cpu') return CPU_PLAN.ablation;
  return datasetSetup(scale === 'paper' ? paperKey : 'purchase', scale) as DatasetSetup;
}

/** A defense of a config: `{name, label, params}` with an optional sweep `grid`. */
export interface DefenseSpec {
  readonly name: string;
  readonly label: string;
  readonly params?: Record<string, unknown>;
  readonly grid?: Record<string, unknown[]>;
}

/** The runner's `past` defense with a setup's tuning phase (plus overrides). */
export function pastDefense(setup: DatasetSetup, label: string, params: Record<string, unknown> = {}, grid?: Record<string, unknown[]>): DefenseSpec {
  return { name: 'past', label, params: { ...setup.past, ...params }, ...(grid === undefined ? {} : { grid }) };
}

/**
 * The runner config of a PAST experiment: PAST6 split, SGD (momentum 0.9, wd 5e-4) with a cosine
 * schedule, the PAST attack set (augmentation attacks with PASTr's defaults, rotation ±1° and
 * translation d = 1, on images), shadow models trained with the same defense.
 * @see docs/protocol.md §1.2 (PAST6), §2.1 (training), §7 "PAST preset"
 */
export function pastExperiment(name: string, setup: DatasetSetup, defenses: readonly DefenseSpec[], seed = 0): ExperimentConfig {
  return parseExperimentConfig(
    {
      name,
      seed,
      dataset: setup.dataset,
      partition: { preset: 'PAST6', maxPerRole: setup.maxPerRole, validation: setup.validation },
      model: setup.model,
      training: { ...setup.training, optimizer: 'sgd', momentum: 0.9, weightDecay: 5e-4, schedule: { type: 'cosine' } },
      defenses,
      attacks: attacksOf(setup),
      augmentation: { rotationDegrees: 1, translationDistance: 1 },
    },
    `past ${name}`,
  );
}

/** One line for the notes: which data and model a setup used. */
export function describeSetup(setup: DatasetSetup, scale: ReproductionScale): string {
  const augment =
    setup.training.augment === undefined ? '' : `, crop ${setup.training.augment.crop} + ${setup.training.augment.flip ? 'flip' : 'no flip'} augmentation`;
  const seeds = (setup.seeds ?? 1) > 1 ? `, ${setup.seeds} training seeds per model` : '';
  const cap = `${setup.maxPerRole === undefined ? 'full PAST6 roles' : `${setup.maxPerRole} examples per PAST6 role`}${setup.validation === undefined ? '' : `, a validation slice of ${setup.validation}`}`;
  return `${DATASET_COLUMNS[setup.key]} at scale '${scale}': ${setup.dataset.name} (${cap}), ${setup.model.name}${Object.keys(setup.model.options).length > 0 ? ` ${JSON.stringify(setup.model.options)}` : ''}, phase 1 ${setup.training.epochs} epochs lr ${setup.training.lr} batch ${setup.training.batchSize}${augment}, PAST λ ${setup.past.lambda}, α ${setup.past.alpha}, ${setup.past.tuneEpochs} tuning epochs${seeds}.`;
}
