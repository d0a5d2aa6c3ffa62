import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { crossEntropy, type LossContext } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { advRegPlugin } from './adv-reg-plugin';
import { TwoBranchAttackModel, mlhAdvRegAttackModel, selAttackModel } from './attack-model';
import { trainAdvReg, type AdvRegOptions } from './train-adv-reg';
import { tinyModel, tinySplits, weightsOf } from './test-utils/fixtures';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('advRegPlugin', () => {
  it('adds α·(mean sigmoid(h(z, ±1 code)) − 0.5) to the base loss', () => {
    // A 1-layer attack with every weight 0 and combine bias b gives h = sigmoid(b) for every input:
    // loss = CE + α·(sigmoid(b) − 0.5). With b = ln 3: sigmoid = 0.75 → CE + 2·0.25 = CE + 0.5.
    const attack = new TwoBranchAttackModel({ numClasses: 3, outputBranch: [2], labelBranch: [2], combine: [], init: 'normal' });
    for (const v of attack.variables) v.assign(tf.zerosLike(v));
    const last = attack.variables.at(-1)!;
    last.assign(tf.fill(last.shape, Math.log(3)));
    const logits = tf.tensor2d([
      [1, 0, 0],
      [0, 2, 1],
    ]);
    const labels = tf.tensor1d([0, 2], 'int32');
    const plugin = advRegPlugin(attack, { alpha: 2 });
    const base = () => crossEntropy(logits, labels);
    const value = tf.tidy(() => plugin.loss!({ logits, labels } as unknown as LossContext, base).arraySync());
    const ce = tf.tidy(() => base().arraySync());
    expect(value).toBeCloseTo(ce + 0.5, 5);
    attack.dispose();
    logits.dispose();
    labels.dispose();
  });
});

// Small attack models keep the tests fast; the paper architectures are checked by shape below.
const smallAttack = (seed: number) => new TwoBranchAttackModel({ numClasses: 3, outputBranch: [16, 8], labelBranch: [8], combine: [8], init: 'pytorch', seed });

describe('attack model presets', () => {
  it('have the MLHospital and SEL layer shapes', () => {
    const shapes = (m: TwoBranchAttackModel) => m.variables.filter((_, i) => i % 2 === 0).map((v) => v.shape.join('x'));
    const mlh = mlhAdvRegAttackModel(3);
    const sel = selAttackModel(3);
    expect(shapes(mlh)).toEqual(['3x1024', '1024x512', '512x64', '3x128', '128x64', '128x256', '256x128', '128x64', '64x1']);
    expect(shapes(sel)).toEqual(['3x1024', '1024x512', '512x64', '3x128', '128x64', '128x512', '512x256', '256x128', '128x64', '64x1']);
    // SEL init: biases 0, weights N(0, 0.01²)
    expect(Array.from(sel.variables[1]!.dataSync()).every((b) => b === 0)).toBe(true);
    const w = Array.from(sel.variables[0]!.dataSync());
    const std = Math.sqrt(w.reduce((a, b) => a + b * b, 0) / w.length);
    expect(std).toBeGreaterThan(0.009);
    expect(std).toBeLessThan(0.011);
    mlh.dispose();
    sel.dispose();
  });
});

describe('trainAdvReg', () => {
  it('MLHospital schedule: warm-up epochs, then attack + private passes; attack weights move, no leaks', async () => {
    const { members, other, dispose } = tinySplits();
    const model = tinyModel(5);
    const attack = smallAttack(1);
    const attackBefore = attack.variables.map((v) => Array.from(v.dataSync()));
    const before = tf.memory().numTensors;
    const history = await trainAdvReg(model, members, other, { epochs: 3, warmupEpochs: 1, batchSize: 16, alpha: 1, attackModel: attack, seed: 3 });
    expect(tf.memory().numTensors).toBe(before);
    expect(history.map((h) => h.adversarial)).toEqual([false, true, true]);
    expect(Number.isNaN(history[0]!.attackLoss)).toBe(true);
    expect(history.slice(1).every((h) => Number.isFinite(h.attackLoss))).toBe(true);
    expect(attack.variables.map((v) => Array.from(v.dataSync()))).not.toEqual(attackBefore);
    attack.dispose();
    model.dispose();
    dispose();
  });

  it('SEL schedule with rounds: deterministic for a seed, no leaks', async () => {
    const { members, other, dispose } = tinySplits();
    const run = async () => {
      const model = tinyModel(6);
      const before = tf.memory().numTensors;
      const attack = smallAttack(2);
      const history = await trainAdvReg(model, members, other, {
        epochs: 2,
        variant: 'sel',
        batchSize: 16,
        attackModel: attack,
        warmupAttackEpochs: 1,
        rounds: { attackBatches: 2, targetBatches: 1 },
        seed: 9,
      });
      attack.dispose();
      expect(tf.memory().numTensors).toBe(before);
      const w = weightsOf(model);
      model.dispose();
      return { history, w };
    };
    const a = await run();
    expect(a.history.map((h) => h.adversarial)).toEqual([false, true]);
    expect(Number.isFinite(a.history[0]!.attackLoss)).toBe(true); // warm-up attack epochs ran
    expect((await run()).w).toEqual(a.w);
    dispose();
  });

  it('α reaches the target: α = 0 ignores the attack model, distinct α give distinct models', async () => {
    const { members, other, dispose } = tinySplits();
    const run = async (alpha: number, attackSeed = 1) => {
      const model = tinyModel(5);
      const attack = smallAttack(attackSeed);
      await trainAdvReg(model, members, other, { epochs: 4, warmupEpochs: 1, batchSize: 16, alpha, attackModel: attack, seed: 3 });
      attack.dispose();
      const w = weightsOf(model);
      model.dispose();
      return w;
    };
    const zero = await run(0);
    // α = 0: CE + 0·gain has exactly CE's gradient, whatever the attack model is.
    expect(await run(0, 2)).toEqual(zero);
    const one = await run(1);
    const five = await run(5);
    expect(one).not.toEqual(zero);
    expect(five).not.toEqual(one);
    // And the attack model matters once α > 0.
    expect(await run(1, 2)).not.toEqual(one);
    dispose();
  });

  it('builds the attack optimizer from attackOptimizerKind and attackLr', async () => {
    const { members, other, dispose } = tinySplits();
    const attackLosses = async (extra: Partial<AdvRegOptions>) => {
      const model = tinyModel(5);
      const attack = smallAttack(1);
      const history = await trainAdvReg(model, members, other, { epochs: 4, warmupEpochs: 1, batchSize: 16, attackModel: attack, seed: 3, ...extra });
      attack.dispose();
      model.dispose();
      return history.slice(1).map((h) => h.attackLoss);
    };
    const sgdDefault = await attackLosses({});
    expect(await attackLosses({ attackOptimizerKind: 'sgd', attackLr: 0.01 })).toEqual(sgdDefault); // the mlhospital default
    expect(await attackLosses({ attackLr: 0.05 })).not.toEqual(sgdDefault);
    expect(await attackLosses({ attackOptimizerKind: 'adam', attackLr: 1e-3 })).not.toEqual(sgdDefault);
    await expect(trainAdvReg(tinyModel(), members, other, { epochs: 1, attackLr: 0 })).rejects.toThrow(/attackLr/);
    dispose();
  });

  it('validates its options', async () => {
    const { members, other, dispose } = tinySplits();
    const model = tinyModel();
    await expect(trainAdvReg(model, members, other, { epochs: 1, variant: 'x' as 'sel' })).rejects.toThrow(
      /trainAdvReg: variant must be one of "mlhospital", "sel"/,
    );
    model.dispose();
    dispose();
  });
});
