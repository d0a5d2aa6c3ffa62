import { dpSgdCandidateLabel, dpSgdSettingName } from '@mia/experiments/reproduce';
import { describe, expect, it } from 'vitest';
import { ablationSetup } from './configs';
import { fig3Config, fig3DpCurve, fig3DpLabel, fig3DpSelectionConfig, fig3DpSettings, fig3Setup, type Fig3DpCurve } from './fig3';

describe('Fig. 3: the DP-SGD curve (ours)', () => {
  it('is in the configs at smoke and cpu scale: one DP-SGD model per ε on the partition of every other curve', () => {
    for (const scale of ['smoke', 'cpu'] as const) {
      const setup = fig3Setup(scale);
      const curve = fig3DpCurve(setup, scale) as Fig3DpCurve;
      expect(curve.epsilons.length).toBeGreaterThanOrEqual(2);
      const config = fig3Config(setup, scale);
      const dp = config.defenses.filter((d) => d.name === 'dp-sgd');
      expect(dp.map((d) => d.label)).toEqual(curve.epsilons.map(fig3DpLabel));
      for (const [i, d] of dp.entries())
        expect(d.params).toEqual({ clipNorm: 1, targetEpsilon: curve.epsilons[i], delta: 1e-5, sampleRate: setup.training.batchSize / setup.maxPerRole! });
      // The paper's curves are all still there, before it.
      expect(config.defenses.slice(0, 2).map((d) => d.label)).toEqual(['w/o', 'PAST']);
      expect(config.defenses.at(-1)!.name).toBe('dp-sgd');
    }
    expect(fig3DpCurve(fig3Setup('cpu'), 'cpu')).toMatchObject({ epsilons: [1, 8, 64], grid: { batches: [512, 1024], epochs: [20], lrs: [0.1, 0.5] } });
    // cpu keeps the ablation setup; smoke gets a validation slice (its setup has none) for the selection.
    expect(fig3Setup('cpu')).toBe(ablationSetup('cifar10', 'cpu'));
    expect(fig3Setup('smoke').validation).toBe(20);
  });

  it('is not run at paper scale (batch normalization in the paper ResNet-18), with the reason', () => {
    const setup = fig3Setup('paper');
    expect(fig3DpCurve(setup, 'paper')).toEqual({ notRun: expect.stringMatching(/batch normalization/) });
    expect(fig3Config(setup, 'paper').defenses.some((d) => d.name === 'dp-sgd')).toBe(false);
  });

  it("chooses each ε's batch, epochs and rate from targets alone on Fig. 3's partition, and trains the curve with them", () => {
    const setup = fig3Setup('cpu');
    const curve = fig3DpCurve(setup, 'cpu') as Fig3DpCurve;
    const settings = fig3DpSettings(setup, curve);
    // Every batch at the other curves' data passes.
    expect(settings.every((s) => s.epochs === setup.training.epochs)).toBe(true);
    const selection = fig3DpSelectionConfig(setup, curve);
    expect(selection.attacks).toEqual([]);
    expect(selection.partition).toEqual(fig3Config(setup, 'cpu').partition);
    expect(selection.partition.validation).toBe(1000);
    expect(selection.defenses.map((d) => d.label)).toEqual(curve.epsilons.flatMap((e) => settings.map((s) => dpSgdCandidateLabel(fig3DpLabel(e), s))));
    for (const d of selection.defenses) {
      const s = settings.find((x) => d.label!.endsWith(dpSgdSettingName(x)))!;
      expect(d.params).toMatchObject({ sampleRate: s.batch / 5000, epochs: s.epochs, lr: s.lr });
      expect(d.params.noiseMultiplier).toBeUndefined();
    }
    const eps = curve.epsilons[1]!;
    const chosen = new Map([[fig3DpLabel(eps), settings[3]!]]);
    const config = fig3Config(setup, 'cpu', chosen);
    expect(config.defenses.find((d) => d.label === fig3DpLabel(eps))!.params).toMatchObject({
      sampleRate: settings[3]!.batch / 5000,
      epochs: settings[3]!.epochs,
      lr: settings[3]!.lr,
      targetEpsilon: eps,
    });
    // The other ε without a choice, and every other curve, unchanged.
    const plain = fig3Config(setup, 'cpu');
    expect(config.defenses.filter((d) => d.label !== fig3DpLabel(eps))).toEqual(plain.defenses.filter((d) => d.label !== fig3DpLabel(eps)));
    // Deterministic: the same plan gives the same configs (the cache keys and the replay rest on it).
    expect(fig3DpSelectionConfig(setup, curve)).toEqual(selection);
    expect(fig3Config(setup, 'cpu', chosen)).toEqual(config);
  });
});
