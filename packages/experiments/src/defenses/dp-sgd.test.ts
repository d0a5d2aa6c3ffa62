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
