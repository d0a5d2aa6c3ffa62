import { InvalidArgumentError } from '@mia/core';
import { describe, expect, it, vi } from 'vitest';
import { parseExperimentConfig } from './parse-config';
import { defenseNames } from '../defenses/registry';
import { runExperiment } from '../run/runner';

const base = {
  name: 'validation',
  scale: 'smoke',
  seed: 0,
  dataset: { name: 'purchaseLike', size: 600 },
  partition: { preset: 'PAST6', maxPerRole: 50 },
  model: { name: 'mlp', options: { hidden: [8] } },
  training: { epochs: 4, batchSize: 16, lr: 0.1 },
  attacks: ['loss'],
};
const withDefenses = (defenses: unknown[], extra: Record<string, unknown> = {}) => ({ ...base, defenses, ...extra });

const errorOf = (input: unknown): string => {
  try {
    parseExperimentConfig(input);
  } catch (error) {
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected the config to be rejected');
};

// Per built-in defense: a valid params object, then [params, the exact line expected] for an unknown
// key, a wrong type and an out-of-range value (the defense sits at index 1, after `none`).
const CASES: Record<string, { ok: Record<string, unknown>; bad: Array<[Record<string, unknown>, string]> }> = {
  none: { ok: {}, bad: [[{ alpha: 1 }, 'defenses[1].params.alpha: expected no options, got an unknown option']] },
  ccl: {
    ok: { alpha: 0.3, concave: 'quadratic' },
    bad: [
      [
        { alpah: 0.1 },
        'defenses[1].params.alpah: expected one of the options alpha, concave, scale, base, gamma, focalConcaveSign, fromLogits, got an unknown option',
      ],
      [{ concave: 3 }, 'defenses[1].params.concave: expected one of "exponential", "quadratic" or a ConcaveTerm or a function, got 3'],
      [{ alpha: 1.5 }, 'defenses[1].params.alpha: expected a number in [0, 1], got 1.5'],
    ],
  },
  crl: {
    ok: { lambda: 0.2, components: 'impRelaxLoss' },
    bad: [
      [
        { lamda: 1 },
        'defenses[1].params.lamda: expected one of the options alpha, upper, t, alphaCenter, upperCenter, tCenter, lambda, parityOffset, components, lrCenters, centerStep, got an unknown option',
      ],
      [{ components: 'all' }, 'defenses[1].params.components: expected one of "crl", "impRelaxLoss", "relaxedCenterLoss", got "all"'],
      [{ upper: 2 }, 'defenses[1].params.upper: expected a number in [0, 1], got 2'],
    ],
  },
  past: {
    ok: { tuneEpochs: 2, lambda: 1e-3, base: { name: 'ccl', params: { alpha: 0.5 } } },
    bad: [
      [
        { epochs: 2 },
        'defenses[1].params.epochs: expected one of the options tuneEpochs, lambda, alpha, clamp, norm, adaptive, lr, momentum, weightDecay, base, got an unknown option',
      ],
      [{ adaptive: 'yes' }, 'defenses[1].params.adaptive: expected true or false, got "yes"'],
      [{ tuneEpochs: 0 }, 'defenses[1].params.tuneEpochs: expected an integer ≥ 1, got 0'],
      [{ base: { name: 'ccl', params: { alpha: 2 } } }, 'defenses[1].params.base.params.alpha: expected a number in [0, 1], got 2'],
      [
        { base: { name: 'memguard' } },
        'defenses[1].params.base.name: expected a training-time defense other than past (PAST tunes the weights), got "memguard"',
      ],
    ],
  },
  relaxloss: {
    ok: { alpha: 0.5, variant: 'tabular' },
    bad: [
      [
        { variants: 'x' },
        'defenses[1].params.variants: expected one of the options alpha, upper, variant, parityOffset, detachSoftTargets, got an unknown option',
      ],
      [{ variant: 'audio' }, 'defenses[1].params.variant: expected one of "image", "tabular", got "audio"'],
      [{ alpha: 0 }, 'defenses[1].params.alpha: expected a number > 0, got 0'],
    ],
  },
  'label-smoothing': {
    ok: { epsilon: 0.2 },
    bad: [
      [{ eps: 0.1 }, 'defenses[1].params.eps: expected one of the options epsilon, form, got an unknown option'],
      [{ epsilon: '0.1' }, 'defenses[1].params.epsilon: expected a number in [0, 1], got "0.1"'],
      [{ epsilon: 1.5 }, 'defenses[1].params.epsilon: expected a number in [0, 1], got 1.5'],
    ],
  },
  'confidence-penalty': {
    ok: { beta: 0.5 },
    bad: [
      [{ b: 1 }, 'defenses[1].params.b: expected one of the options beta, got an unknown option'],
      [{ beta: null }, 'defenses[1].params.beta: expected a number ≥ 0, got null'],
      [{ beta: -1 }, 'defenses[1].params.beta: expected a number ≥ 0, got -1'],
    ],
  },
  l1: {
    ok: { lambda: 1e-4, kinds: ['dense'] },
    bad: [
      [{ lambada: 1 }, 'defenses[1].params.lambada: expected one of the options lambda, kinds, includeBiases, got an unknown option'],
      [{ kinds: ['conv', 'rnn'] }, 'defenses[1].params.kinds[1]: expected one of "conv", "dense", "batchnorm", got "rnn"'],
      [{ lambda: -1 }, 'defenses[1].params.lambda: expected a number ≥ 0, got -1'],
    ],
  },
  advreg: {
    ok: { alpha: 3, warmupEpochs: 1 },
    bad: [
      [
        { epochs: 3 },
        'defenses[1].params.epochs: expected one of the options variant, alpha, attackLoss, warmupEpochs, warmupObjective, warmupAttackEpochs, rounds, outputs, labelCode, attackOptimizerKind, attackLr, got an unknown option',
      ],
      [{ rounds: { attackBatches: 2 } }, 'defenses[1].params.rounds.targetBatches: expected an integer ≥ 1, got nothing (it is required)'],
      [{ warmupEpochs: -1 }, 'defenses[1].params.warmupEpochs: expected an integer ≥ 0, got -1'],
    ],
  },
  'mixup-mmd': {
    ok: { lambdaMmd: 1 },
    bad: [
      [{ lambda: 1 }, 'defenses[1].params.lambda: expected one of the options lambdaMmd, mixupAlpha, sigma, gapThreshold, got an unknown option'],
      [{ sigma: 'wide' }, 'defenses[1].params.sigma: expected a number > 0, got "wide"'],
      [{ gapThreshold: 3 }, 'defenses[1].params.gapThreshold: expected a number in [0, 1], got 3'],
    ],
  },
  sam: {
    ok: { rho: 0.05 },
    bad: [
      [{ radius: 1 }, 'defenses[1].params.radius: expected one of the options rho, restoreStatistics, got an unknown option'],
      [{ restoreStatistics: 1 }, 'defenses[1].params.restoreStatistics: expected true or false, got 1'],
      [{ rho: 0 }, 'defenses[1].params.rho: expected a number > 0, got 0'],
    ],
  },
  sharpreg: {
    ok: { rho: 0.001, lambda: 1, xi: 0.05 },
    bad: [
      [
        { rho: 0.1, lambda: 1, xi: 0.1, gamma: 1 },
        'defenses[1].params.gamma: expected one of the options rho, lambda, xi, beta, restoreStatistics, got an unknown option',
      ],
      [{ lambda: 1, xi: 0 }, 'defenses[1].params.rho: expected a number > 0, got nothing (it is required)'],
      [
        { rho: 0.1, lambda: 1, xi: 3 },
        'defenses[1].params: expected either lambda and xi (with 1 + lambda − xi > 0), or beta, got {"rho":0.1,"lambda":1,"xi":3,"restoreStatistics":true} (sharpRegPlugin: 1 + lambda − xi must be positive (ξ too large breaks training), got -1)',
      ],
    ],
  },
  dropout: {
    ok: { p: 0.5 },
    bad: [
      [{ p: 0.5, rate: 1 }, 'defenses[1].params.rate: expected one of the options p, got an unknown option'],
      [{ p: '0.5' }, 'defenses[1].params.p: expected a number in [0, 1), got "0.5"'],
      [{ p: 1 }, 'defenses[1].params.p: expected a number in [0, 1), got 1'],
    ],
  },
  l2: {
    ok: { weightDecay: 0 },
    bad: [
      [{ weightDecay: 0, wd: 1 }, 'defenses[1].params.wd: expected one of the options weightDecay, got an unknown option'],
      [{}, 'defenses[1].params.weightDecay: expected a number ≥ 0, got nothing (it is required)'],
      [{ weightDecay: -0.1 }, 'defenses[1].params.weightDecay: expected a number ≥ 0, got -0.1'],
    ],
  },
  'early-stop': {
    ok: { epochs: 4 },
    bad: [
      [{ epochs: 2, patience: 3 }, 'defenses[1].params.patience: expected one of the options epochs, got an unknown option'],
      [{ epochs: 2.5 }, 'defenses[1].params.epochs: expected an integer ≥ 1, got 2.5'],
      [{ epochs: 5 }, "defenses[1].params.epochs: expected an integer in [1, 4] (the run's training.epochs), got 5"],
    ],
  },
  'dp-sgd': {
    ok: { clipNorm: 1, noiseMultiplier: 1.1, delta: 1e-5, sampleRate: 0.1 },
    bad: [
      [
        { clipNorm: 1, noiseMultiplier: 1, delta: 1e-5, sampleRate: 0.1, sigma: 1 },
        'defenses[1].params.sigma: expected one of the options clipNorm, noiseMultiplier, targetEpsilon, delta, sampleRate, sampling, lr, epochs, audit, got an unknown option',
      ],
      [{ clipNorm: 1, noiseMultiplier: '1', delta: 1e-5, sampleRate: 0.1 }, 'defenses[1].params.noiseMultiplier: expected a number ≥ 0, got "1"'],
      [{ clipNorm: 1, noiseMultiplier: 1, delta: 1e-5, sampleRate: 1.5 }, 'defenses[1].params.sampleRate: expected a number in (0, 1], got 1.5'],
    ],
  },
  memguard: {
    ok: { attackEpochs: 5, hidden: [8] },
    bad: [
      [
        { attack: 5 },
        'defenses[1].params.attack: expected one of the options c1, c2, c3, maxC3, stepSize, maxIterations, attackEpochs, hidden, got an unknown option',
      ],
      [{ hidden: 8 }, 'defenses[1].params.hidden: expected a list of at least 1 of integers ≥ 1, got 8'],
      [{ maxIterations: 0 }, 'defenses[1].params.maxIterations: expected an integer ≥ 1, got 0'],
    ],
  },
  selena: {
    ok: { numModels: 3, numExcluded: 1 },
    bad: [
      [{ k: 3 }, 'defenses[1].params.k: expected one of the options numModels, numExcluded, assignmentSeed, distillationEpochs, got an unknown option'],
      [{ numModels: 'many' }, 'defenses[1].params.numModels: expected an integer ≥ 2, got "many"'],
      [{ numModels: 3, numExcluded: 3 }, 'defenses[1].params.numExcluded: expected an integer less than numModels (3), got 3'],
    ],
  },
};

describe('experiment config validation', () => {
  it('has a case for every built-in defense', () => {
    expect(Object.keys(CASES).sort()).toEqual(defenseNames().sort());
  });

  for (const [name, { ok, bad }] of Object.entries(CASES)) {
    it(`${name}: valid params pass; an unknown key, a wrong type and an out-of-range value fail naming the path`, () => {
      expect(() => parseExperimentConfig(withDefenses([{ name: 'none' }, { name, params: ok }]))).not.toThrow();
      for (const [params, line] of bad)
        expect(
          errorOf(withDefenses([{ name: 'none' }, { name, params }]))
            .split('\n')
            .slice(1)
            .map((l) => l.trim()),
        ).toEqual([line]);
    });
  }

  it('reports every problem at once: grid values where they are written, names, the model, attacks and strict shapes', () => {
    const message = errorOf(
      withDefenses([{ name: 'ccl', grid: { alpha: [0.5, 1.5] } }, { name: 'nope' }], { attacks: ['loss', 'lose'], model: { name: 'mpl' } }),
    );
    expect(
      message
        .split('\n')
        .slice(1)
        .map((l) => l.trim()),
    ).toEqual([
      'defenses[0].grid.alpha[1]: expected a number in [0, 1], got 1.5',
      `defenses[1].name: expected one of ${defenseNames().join(', ')} (user defenses: list the module that registers them in \`modules\`), got "nope"`,
      expect.stringMatching(/^model\.name: expected one of mlp, .*got "mpl"$/),
      expect.stringMatching(/^attacks\[1\]: expected one of correctness, loss, .*got "lose"$/),
    ]);
    expect(errorOf({ ...withDefenses([{ name: 'none' }]), training: { ...base.training, epoch: 3 } })).toContain(
      'training.epoch: expected one of the keys epochs, batchSize, optimizer, lr, momentum, nesterov, weightDecay, schedule, microBatchSize, augment, checkpoint, got an unknown key',
    );
    expect(errorOf(withDefenses([{ name: 'memguard' }], { partition: { preset: 'CCL4' } }))).toContain(
      'defenses[0].name: expected a defense that runs on partition.preset CCL4 ("memguard" needs a partition with an inference set: PAST6 or CCL5), got "memguard"',
    );
  });

  it('one pass reports shape errors, defense params, and dataset, model and attack names together, each with its path and the allowed values', () => {
    const message = errorOf({
      ...withDefenses([{ name: 'none' }, { name: 'ccl', params: { alpah: 0.1 } }]),
      dataset: { name: 'cifar11' },
      model: { name: 'mpl' },
      training: { epochs: 4, batchSize: 16, lr: -1, optimizer: 'sgdd', schedule: { type: 'cosin' } },
      attacks: ['loss', 'lose'],
      extra: true,
    });
    expect(message.split('\n').map((l) => l.trim())).toEqual([
      'config: invalid experiment config:',
      'training.optimizer: expected one of "sgd", "adam", got "sgdd"',
      'training.lr: expected a number > 0, got -1',
      'training.schedule.type: expected one of "constant", "cosine", "multistep", "piecewise", got "cosin"',
      'extra: expected one of the keys name, description, scale, seed, trainingSeed, dataset, partition, model, training, defenses, attacks, shadowModels, shadowSeed, references, augmentation, modules, workers, paper, got an unknown key',
      'defenses[1].params.alpah: expected one of the options alpha, concave, scale, base, gamma, focalConcaveSign, fromLogits, got an unknown option',
      'dataset.name: expected one of cifar10, cifar100, svhn, purchase100, texas100, purchaseLike, texasLike, got "cifar11"',
      expect.stringMatching(/^model\.name: expected one of mlp, resnet18, .*got "mpl"$/),
      expect.stringMatching(/^attacks\[1\]: expected one of correctness, loss, .*nn-mlh, .*got "lose"$/),
    ]);
    // A missing required field and a wrong type name what is expected.
    expect(
      errorOf({ ...withDefenses([{ name: 'none' }]), training: { epochs: 'four', lr: 0.1 }, seed: 1.5 })
        .split('\n')
        .slice(1)
        .map((l) => l.trim()),
    ).toEqual([
      'seed: expected an integer, got 1.5',
      'training.epochs: expected a number, got "four"',
      'training.batchSize: expected a number, got nothing (it is required)',
    ]);
  });

  it('runExperiment rejects a bad value before any data loads or anything trains', async () => {
    const loadData = vi.fn();
    const placement = { where: () => 'elsewhere', train: vi.fn() };
    const config = {
      ...parseExperimentConfig(withDefenses([{ name: 'none' }])),
      defenses: [
        { name: 'none', params: {} },
        { name: 'ccl', params: {} },
        { name: 'ccl', params: { alpha: 1.5 } },
      ],
    };
    await expect(runExperiment(config, { loadData, placement })).rejects.toThrow(
      'runExperiment: invalid experiment config:\n  defenses[2].params.alpha: expected a number in [0, 1], got 1.5',
    );
    await expect(runExperiment(config, { loadData, workers: 0 })).rejects.toThrow(/defenses\[2\]\.params\.alpha/);
    expect(loadData).not.toHaveBeenCalled();
    expect(placement.train).not.toHaveBeenCalled();
  });
});
