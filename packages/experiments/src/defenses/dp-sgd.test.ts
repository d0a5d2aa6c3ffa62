import { InvalidArgumentError } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import { experimentIssues } from '../config/validate-config';
import { dpSgdDefenseSchema, dpSgdSteps } from './dp-sgd';

const base = {
  name: 'dp-validation',
  scale: 'smoke',
  seed: 0,
  dataset: { name: 'purchaseLike', size: 600 },
  partition: { preset: 'CCL4', maxPerRole: 50 },
  model: { name: 'mlp', options: { hidden: [8] } },
  training: { epochs: 4, batchSize: 16, lr: 0.1 },
  attacks: ['loss'],
};
const ok = { clipNorm: 1, noiseMultiplier: 1.1, delta: 1e-5, sampleRate: 0.1 };
const lines = (params: unknown, extra: Record<string, unknown> = {}) =>
  experimentIssues({ ...base, ...extra, defenses: [{ name: 'none' }, { name: 'dp-sgd', params }] }).map(
    (i) => `${i.path}: expected ${i.expected}, got ${i.got}`,
  );

describe('dp-sgd defense params', () => {
  it('takes exactly one of noiseMultiplier and targetEpsilon, validated with every other field at once', () => {
    expect(lines(ok)).toEqual([]);
    expect(lines({ clipNorm: 1, targetEpsilon: 2, delta: 1e-5, sampleRate: 0.1, sampling: 'shuffle' })).toEqual([]);
    expect(lines({ clipNorm: 0, delta: 1e-5, sampleRate: 0.1 })).toEqual([
      'defenses[1].params.clipNorm: expected a number > 0, got 0',
      'defenses[1].params.noiseMultiplier: expected exactly one of noiseMultiplier (σ ≥ 0) and targetEpsilon (ε > 0, from which σ is computed), got neither',
    ]);
    expect(lines({ ...ok, targetEpsilon: 3 })).toEqual([
      'defenses[1].params.targetEpsilon: expected exactly one of noiseMultiplier (σ ≥ 0) and targetEpsilon (ε > 0, from which σ is computed), got both (noiseMultiplier 1.1, targetEpsilon 3)',
    ]);
    expect(lines({ clipNorm: 1, noiseMultiplier: 1 })).toEqual([
      'defenses[1].params.delta: expected a number in (0, 1), got nothing (it is required)',
      'defenses[1].params.sampleRate: expected a number in (0, 1], got nothing (it is required)',
    ]);
    expect(lines({ ...ok, sampling: 'fixed' })).toEqual(['defenses[1].params.sampling: expected one of "poisson", "shuffle", got "fixed"']);
  });

  it('takes its own learning rate and epochs, checked like training.lr and training.epochs', () => {
    expect(lines({ ...ok, lr: 2, epochs: 30 })).toEqual([]);
    expect(lines({ ...ok, lr: 0, epochs: 2.5 })).toEqual([
      'defenses[1].params.lr: expected a number > 0, got 0',
      'defenses[1].params.epochs: expected an integer ≥ 1, got 2.5',
    ]);
    const piecewise = { ...base.training, schedule: { type: 'piecewise', ranges: [{ start: 0, end: 4, lr: 0.1 }] } };
    expect(lines({ ...ok, lr: 2 }, { training: piecewise })).toEqual([
      'defenses[1].params.lr: expected no lr with training.schedule piecewise (its ranges set absolute rates), got 2',
    ]);
  });

  it('refuses batch normalization, naming the model option', () => {
    expect(lines(ok, { model: { name: 'small-cnn', options: {} } })).toEqual([
      "defenses[1].params: expected model.options.norm 'group' (or 'none') for model small-cnn: DP-SGD does not hold with batch normalization, which mixes the examples of a batch, got model.options.norm absent ('batch', the default)",
    ]);
    expect(lines(ok, { model: { name: 'resnet18', options: { norm: 'batch' } } })[0]).toMatch(
      /model\.options\.norm 'group'.* got model\.options\.norm "batch"$/,
    );
    expect(lines(ok, { model: { name: 'resnet18', options: { norm: 'group' } } })).toEqual([]);
    expect(lines(ok, { model: { name: 'small-cnn', options: { norm: 'none' } } })).toEqual([]);
    expect(lines(ok, { model: { name: 'vgg11-bn', options: {} } })).toEqual([
      'defenses[1].params: expected a model without batch normalization (mlp, or small-cnn, resnet18, resnet34, resnet-narrow with model.options.norm \'group\'): DP-SGD does not hold with batch normalization, got model.name "vgg11-bn" (batch normalization, no norm option)',
    ]);
  });

  it('refuses Poisson sampling with training augmentation (its batches are not augmented)', () => {
    const training = { ...base.training, augment: { crop: 4, flip: true } };
    expect(lines(ok, { training })).toContainEqual(
      'defenses[1].params.sampling: expected \'shuffle\', or a run without training.augment (Poisson batches are drawn by DP-SGD itself, without augmentation), got \'poisson\' with training.augment {"crop":4,"flip":true}',
    );
  });

  it('refuses δ ≥ 1/N, N the examples the target trains on, naming δ, N and 1/N', () => {
    // CCL4 with maxPerRole 50: the target trains on 50 examples, so δ must stay below 1/50.
    expect(lines({ ...ok, delta: 0.0199 })).toEqual([]);
    expect(lines({ ...ok, delta: 0.02 })).toEqual([
      'defenses[1].params.delta: expected a number below 1/N = 0.02 (N = 50 examples the target trains on; a mechanism that publishes each example with probability δ, δ·N ≥ 1 of them in the clear, meets any ε at such a δ), got 0.02',
    ]);
    // N follows the cap: with 40 per role, 0.02 is fine and 0.025 is not.
    expect(lines({ ...ok, delta: 0.02 }, { partition: { preset: 'CCL4', maxPerRole: 40 } })).toEqual([]);
    expect(lines({ ...ok, delta: 0.025 }, { partition: { preset: 'CCL4', maxPerRole: 40 } })[0]).toMatch(
      /^defenses\[1\]\.params\.delta: expected a number below 1\/N = 0\.025 \(N = 40 /,
    );
  });

  it('refuses a targetEpsilon the accountant cannot certify before anything trains, naming the smallest it can', () => {
    const floor = 'a number above 0.102867, the smallest ε > 0 the accountant certifies at delta 0.00001 however much noise is added';
    expect(lines({ clipNorm: 1, targetEpsilon: 0.1, delta: 1e-5, sampleRate: 0.05 })).toEqual([
      `defenses[1].params.targetEpsilon: expected ${floor} (its RDP orders, Opacus' grid, end at 63): raise targetEpsilon, or raise delta (keeping it below 1/N), got 0.1`,
    ]);
    expect(lines({ clipNorm: 1, targetEpsilon: 0.11, delta: 1e-5, sampleRate: 0.05 })).toEqual([]);
    // A larger δ lowers the floor (to 0 at δ = 0.01): the same target is then certifiable.
    expect(lines({ clipNorm: 1, targetEpsilon: 0.1, delta: 0.01, sampleRate: 0.05 })).toEqual([]);
    // In a grid each combination is checked, and the bad value is reported where it is written.
    const grid = experimentIssues({
      ...base,
      defenses: [
        { name: 'dp-sgd', params: { clipNorm: 1, targetEpsilon: 1, delta: 1e-5, sampleRate: 0.05 }, grid: { targetEpsilon: [0.05, 2], delta: [1e-5, 0.5] } },
      ],
    });
    expect(grid.map((i) => i.path)).toEqual(['defenses[0].grid.targetEpsilon[0]', 'defenses[0].grid.delta[1]']);
    expect(() =>
      parseExperimentConfig({ ...base, defenses: [{ name: 'dp-sgd', params: { clipNorm: 1, targetEpsilon: 0.05, delta: 1e-5, sampleRate: 0.05 } }] }),
    ).toThrow(/defenses\[0\]\.params\.targetEpsilon: expected a number above 0\.102867, .*got 0\.05/);
  });

  it('fails parseExperimentConfig with the path of each problem', () => {
    expect(() => parseExperimentConfig({ ...base, defenses: [{ name: 'dp-sgd', params: { clipNorm: 1, delta: 1e-5, sampleRate: 0.1 } }] })).toThrow(
      /defenses\[0\]\.params\.noiseMultiplier: expected exactly one of noiseMultiplier/,
    );
  });

  it('parse fills the default sampling and rejects bad or corrupted input with a clear error', () => {
    expect(dpSgdDefenseSchema.parse(ok, 'dp-sgd')).toEqual({ ...ok, sampling: 'poisson' });
    expect(() => dpSgdDefenseSchema.parse({ clipNorm: 1, delta: 1e-5, sampleRate: 0.1 }, 'dp-sgd')).toThrow(
      'dp-sgd: noiseMultiplier must be exactly one of noiseMultiplier (σ ≥ 0) and targetEpsilon (ε > 0, from which σ is computed), got neither',
    );
    expect(() => dpSgdDefenseSchema.parse('{"clipNorm":1}', 'dp-sgd')).toThrow(InvalidArgumentError);
    expect(() => dpSgdDefenseSchema.parse('{"clipNorm":1}', 'dp-sgd')).toThrow('dp-sgd: (options) must be an object of options, got "{\\"clipNorm\\":1}"');
    expect(() => dpSgdDefenseSchema.parse({ ...ok, clipNorm: Number.NaN }, 'dp-sgd')).toThrow('dp-sgd: clipNorm must be a number > 0, got NaN');
    expect(dpSgdDefenseSchema.jsonSchema().oneOf).toEqual([{ required: ['noiseMultiplier'] }, { required: ['targetEpsilon'] }]);
  });

  it('runs epochs × ceil(N / B) steps with B = max(1, round(q·N))', () => {
    expect(dpSgdSteps(300, 0.1, 5)).toEqual({ batchSize: 30, steps: 50 });
    expect(dpSgdSteps(301, 0.1, 2)).toEqual({ batchSize: 30, steps: 22 });
    expect(dpSgdSteps(7, 0.01, 3)).toEqual({ batchSize: 1, steps: 21 });
  });
});
