import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { createHash } from 'node:crypto';
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
    const attack = new TwoBranchAttackModel({ numClasses: 3, outputBranch: [2], labelBranch: [2], combine: [], init: { normalStd: 0.01 } });
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

// Weights, logits and input gradients of the AdvReg/SEL attack models, and two short AdvReg trainings,
// before the attack models were built by @mia/core's createAttackNetwork (computed with the former
// DenseNetwork stacks, cpu backend). selAttackModel's digest is that of @mia/core's nn-sel network.
const attackModelsBefore = {
  mlh: {
    make: () => mlhAdvRegAttackModel(3, 7),
    weights: 'fa1bd8fc79e36ac694e70b6d6b32ff183d70274c8928dc7586990df931bed0fa',
    forward: [0.03186945617198944, 0.034161441028118134, 0.03437163680791855, 0.03321053460240364],
    inputGradient: [
      -0.0011156373657286167, -0.0007576143252663314, 0.0007048016414046288, 0.00021895508689340204, -0.00029464089311659336, 0.00010784280311781913,
      -0.0006968461675569415, 0.0003546604420989752, 0.0006113330600783229, 0.0007367994403466582, -0.000271190598141402, -0.00021987740183249116,
    ],
  },
  sel: {
    make: () => selAttackModel(3, 7),
    weights: '39b826c44e16a360729ba31696f4e3e84e4ec37d52776d1ffce6c2a3f3055f45',
    forward: [-5.840428141112852e-9, -1.414477313055329e-9, -6.80525147345179e-9, -4.446746582065231e-10],
    inputGradient: [
      -4.2172005471075025e-11, -2.7209523523197277e-9, -1.3633125739431762e-9, -9.250294280560567e-11, 1.7315910927351297e-9, -2.415535271804714e-10,
      6.506401528660888e-10, -3.253314284634712e-9, -1.1335268279566435e-9, -1.2128781312625847e-9, 1.2259500359323994e-10, 1.3703649326402e-9,
    ],
  },
  small: {
    make: () => new TwoBranchAttackModel({ numClasses: 3, outputBranch: [16, 8], labelBranch: [8], combine: [8], init: 'pytorch', seed: 2 }),
    weights: 'f623ea1457a0a7b87e3bf8c4ced3118d97a515dd8ab1e2683fe97ca4d7f7d39e',
    forward: [0.30480119585990906, 0.39427652955055237, 0.32381442189216614, 0.4034322500228882],
    inputGradient: [
      0.009089531376957893, -0.002669589128345251, -0.0010190182365477085, -0.00526688527315855, 0.008623351342976093, -0.00013519002823159099,
      0.0067876726388931274, -4.0469851228408515e-5, -0.0019634151831269264, -0.005074157379567623, 0.008385048247873783, -0.0005103841540403664,
    ],
  },
};

/** SHA-256 of the bytes of `variables`, in order. */
function weightsDigest(variables: readonly tf.Tensor[]): string {
  const hash = createHash('sha256');
  for (const v of variables) {
    const data = v.dataSync() as Float32Array;
    hash.update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }
  return hash.digest('hex');
}

/** A fixed `[n, d]` input: 2·sin(i + 1 + phase). */
const fixedInput = (n: number, d: number, phase = 0) =>
  tf.tensor2d(
    Float32Array.from({ length: n * d }, (_, i) => 2 * Math.sin(i + 1 + phase)),
    [n, d],
  );

describe('the AdvReg attack models keep their weights and outputs bit for bit', () => {
  for (const [name, pinned] of Object.entries(attackModelsBefore)) {
    it(`${name}: the same weights, member logits and gradient with respect to the target outputs`, () => {
      const attack = pinned.make();
      const [outputs, code] = [fixedInput(4, 3), fixedInput(4, 3, 50)];
      expect(weightsDigest(attack.variables)).toBe(pinned.weights);
      expect(tf.tidy(() => Array.from(attack.forward(outputs, code).dataSync()))).toEqual(pinned.forward);
      const gradient = tf.tidy(() =>
        Array.from(
          tf
            .grad((o: tf.Tensor) => tf.sum(attack.forward(o as tf.Tensor2D, code)))(outputs)
            .dataSync(),
        ),
      );
      expect(gradient).toEqual(pinned.inputGradient);
      tf.dispose([outputs, code]);
      attack.dispose();
    });
  }

  it('trainAdvReg with its default attack models trains the same target (MLHospital and SEL)', async () => {
    const { members, other, dispose } = tinySplits();
    const run = async (options: AdvRegOptions) => {
      const model = tinyModel(5);
      const history = await trainAdvReg(model, members, other, options);
      const out = { target: weightsDigest(model.trainableVariables), attackLoss: history.map((h) => h.attackLoss) };
      model.dispose();
      return out;
    };
    expect(await run({ epochs: 2, warmupEpochs: 1, batchSize: 16, seed: 3 })).toEqual({
      target: '78e36502672b140adb8caf975de568c249306df0fe87e3d01eff64fea320eab4',
      attackLoss: [NaN, 0.6931796669960022],
    });
    const sel = { epochs: 2, variant: 'sel', batchSize: 16, warmupAttackEpochs: 1, rounds: { attackBatches: 2, targetBatches: 1 }, seed: 9 } as const;
    expect(await run(sel)).toEqual({ target: '39db7892822aa1ed6dfece2af88b7156fd11d7ecfbfd8600d73bd0cf4d6fcc5b', attackLoss: [0.25, 0.25] });
    dispose();
  });
});
