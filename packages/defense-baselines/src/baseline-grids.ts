/**
 * The hyperparameter grids of every baseline, for trade-off curves (sweep one knob, plot every
 * (test accuracy, attack advantage) point). Values are docs/protocol.md §4.17 (CCL App. E), except
 * where a comment names another source.
 * @see docs/protocol.md §4.17, §4.5–§4.13.
 */
export const baselineGrids = {
  /** RelaxLoss α. */
  relaxLoss: [0.01, 0.04, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2],
  /** Mixup+MMD λ_mmd. */
  mixupMmd: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 4, 8],
  /** Adversarial regularisation α. */
  advReg: [0.8, 1.0, 1.2, 1.4, 1.6, 1.8],
  /** Dropout p (a model option: `@mia/models` architectures take `dropout`, placed before the last layer). */
  dropout: [0.01, 0.02, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9],
  /** Label smoothing ε. */
  labelSmoothing: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
  /** Confidence penalty β. */
  confidencePenalty: [0.1, 0.3, 0.5, 1, 2, 4, 8],
  /** Early-stopping checkpoints (epochs completed) of a 300-epoch run (CCL). */
  earlyStopping: [25, 50, 75, 100, 125, 150, 175, 200, 225, 250, 275],
  /** RL CIFAR early-stopping epochs (docs/protocol.md §4.11). */
  earlyStoppingRlImage: [5, 10, 15, 20, 30, 40, 50, 75, 100, 150, 200, 250],
  /** RL non-image early-stopping epochs (docs/protocol.md §4.11). */
  earlyStoppingRlTabular: [5, 10, 20, 30, 40, 50, 60, 70, 100],
  /** L1 λ: unpublished; the recommendation of docs/protocol.md §4.12. */
  l1: [1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3],
  /** L2 (SGD weight decay): unpublished; the same recommended range as L1 plus the default 5e-4. */
  l2: [1e-5, 3e-5, 1e-4, 3e-4, 5e-4, 1e-3, 3e-3],
  /** DMP softmax temperature τ: unpublished in CRL; a range around the DMP paper's usual values. */
  dmpTemperature: [1, 2, 4, 8],
} as const;

/**
 * Default hyperparameters of every baseline (one point per baseline, e.g. for a summary table).
 * @see docs/protocol.md §4.5–§4.15, §2.3 (RelaxLoss per dataset), §2.5 (SELENA, AdvReg-SEL).
 */
export const baselineDefaults = {
  /** RL configs: CIFAR-10 ResNet20 (1, 1), VGG11-BN (0.4, 1), CIFAR-100 ResNet20 (3, 1), VGG11-BN (0.5, 1). */
  relaxLoss: {
    cifar10: { alpha: 1, upper: 1, variant: 'image' },
    purchase: { alpha: 0.8, upper: 0.3, variant: 'tabular' },
    texas: { alpha: 2.5, upper: 0.1, variant: 'tabular' },
  },
  labelSmoothing: { epsilon: 0.1, form: 'rl' },
  confidencePenalty: { beta: 0.1 },
  dropout: { p: 0.5 },
  /** MLHospital code default λ_mmd = 3, mixup α = 1, skip MMD below a 3-point accuracy gap. */
  mixupMmd: { lambdaMmd: 3, mixupAlpha: 1, gapThreshold: 0.03, sigma: 1 },
  /** RL default α = 1; SEL: Purchase 3, Texas 2, CIFAR-100 6. */
  advReg: { alpha: 1, warmupEpochs: 4 },
  l1: { lambda: 1e-3 },
  l2: { weightDecay: 5e-4 },
  dmp: { temperature: 1 },
  selena: { numModels: 25, numExcluded: 10 },
  memGuard: { c1: 1, c2: 10, c3: 0.1, stepSize: 0.1, maxIterations: 300, maxC3: 1e5 },
} as const;
