import * as tf from '@tensorflow/tfjs-core';
import { createHash } from 'node:crypto';
import { countParameters } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAttackModel, type AttackModelKind } from './attack-model';
import { checkForwardContract, groupSummary, randomBatch, rms, sgdLosses, useCpu } from './test-utils/classifier-checks';

beforeAll(useCpu);

describe('createAttackModel', () => {
  it('builds the four docs/protocol.md §3.2 architectures with hand-counted parameters (C = 10)', async () => {
    // nn-rl: 10·100+100 + 100+1 = 1,201.  nn-mlh: 10·64+64 + 64·32+32 + 32·2+2 = 2,850.
    // nn-crl: 20·128+128 + 128·64+64 + 64·64+64 + 64·2+2 = 2,688 + 8,256 + 4,160 + 130 = 15,234.
    // nn-sel: features 10·1024+1024 + 1024·512+512 + 512·64+64 = 568,896; labels 10·128+128 + 128·64+64 = 9,664;
    //         combine 128·512+512 + 512·256+256 + 256·128+128 + 128·64+64 + 64+1 = 238,593 → 817,153.
    const expected = { 'nn-rl': [10, 1_201, 1, 100], 'nn-mlh': [10, 2_850, 2, 32], 'nn-crl': [20, 15_234, 2, 64], 'nn-sel': [20, 817_153, 1, 64] } as const;
    for (const [kind, [inputDim, params, outputs, featureDim]] of Object.entries(expected)) {
      const model = createAttackModel(kind as keyof typeof expected, { inputDim });
      expect(countParameters(model)).toBe(params);
      expect(model.numClasses).toBe(outputs);
      expect(model.featureDim).toBe(featureDim);
      expect(model.inputShape).toEqual([inputDim]);
      await checkForwardContract(model);
      model.dispose();
    }
  });

  it('initialises nn-sel with N(0, 0.01²) weights and zero biases, and names its branches', async () => {
    const model = createAttackModel('nn-sel', { inputDim: 200, seed: 4 });
    expect(groupSummary(model)).toEqual([
      'features.0:dense',
      'features.2:dense',
      'features.4:dense',
      'labels.0:dense',
      'labels.2:dense',
      'combine.0:dense',
      'combine.2:dense',
      'combine.4:dense',
      'combine.6:dense',
      'combine.8:dense',
    ]);
    expect(rms(model.parameterGroups[0]!.weight)).toBeCloseTo(0.01, 3);
    expect(Math.max(...Array.from(model.parameterGroups[0]!.bias!.dataSync()).map(Math.abs))).toBe(0);
    model.dispose();
  });

  it('nn-crl applies seeded dropout in training mode only', async () => {
    const model = createAttackModel('nn-crl', { inputDim: 8 });
    const x = randomBatch(4, [8]);
    const run = (training: boolean, seed: number) => tf.tidy(() => model.forward(x, { training, seed }).logits.arraySync());
    expect(run(true, 1)).toEqual(run(true, 1));
    expect(run(true, 1)).not.toEqual(run(true, 2));
    expect(run(false, 1)).toEqual(run(false, 2));
    x.dispose();
    model.dispose();
  });

  it('nn-mlh learns a separable membership signal', async () => {
    const model = createAttackModel('nn-mlh', { inputDim: 4, seed: 1 });
    const x = tf.tensor2d([
      [1, 0, 0, 0],
      [0.9, 0.1, 0, 0],
      [0.25, 0.25, 0.25, 0.25],
      [0.3, 0.3, 0.2, 0.2],
    ]);
    const losses = await sgdLosses(model, x, [1, 1, 0, 0], 20, 0.5);
    expect(losses[19]!).toBeLessThan(losses[0]! * 0.8);
    x.dispose();
    model.dispose();
  });

  it('rejects an unknown kind and an odd nn-sel input', async () => {
    expect(() => createAttackModel('nn-x' as 'nn-rl', { inputDim: 4 })).toThrow('createAttackModel: kind must be nn-rl | nn-mlh | nn-sel | nn-crl, got "nn-x"');
    expect(() => createAttackModel('nn-sel', { inputDim: 5 })).toThrow(/inputDim must be even for nn-sel/);
  });
});

// Weights and outputs of createAttackModel before its architectures came from @mia/core's
// attackNetworkSpec (computed with the former hand-written layer lists, seed 7, cpu backend): cached
// attack models and committed numbers depend on these bits. The weight digests equal those of
// @mia/core's createAttackNetwork for the same spec (the same draws in the same order).
const before: Record<
  AttackModelKind,
  { inputDim: number; weights: string; names: string; forwardFlops: number; evalLogits: number[]; features: number[]; trainLogits?: number[] }
> = {
  'nn-rl': {
    inputDim: 5,
    weights: '5e32cee402c7eb65225a9b390fd000a06db0e30d09332b34119f24877329fa51',
    names: 'layers.0.weight:5x100 layers.0.bias:100 layers.2.weight:100x1 layers.2.bias:1',
    forwardFlops: 1200,
    evalLogits: [0.38759809732437134, -0.050853319466114044, -0.5308000445365906, 0.04924595355987549],
    features: [0.5067289471626282, 0.18592143058776855, 0, 1.3530147075653076, 0, 0],
  },
  'nn-mlh': {
    inputDim: 5,
    weights: '6080ceb08929a29cca5fee6a044e757fc2dd5c07955354907a36e405ff6d2fc9',
    names: 'layers.0.weight:5x64 layers.0.bias:64 layers.2.weight:64x32 layers.2.bias:32 layers.4.weight:32x2 layers.4.bias:2',
    forwardFlops: 4864,
    evalLogits: [
      -0.07120393961668015, 0.0030638352036476135, -0.20368513464927673, 0.041429586708545685, -0.32132816314697266, -0.10563335567712784, -0.24492886662483215,
      -0.034448981285095215,
    ],
    features: [0.6738139390945435, 0.08126135170459747, 0.07578539848327637, 0, 0, 0],
  },
  'nn-sel': {
    inputDim: 6,
    weights: '39b826c44e16a360729ba31696f4e3e84e4ec37d52776d1ffce6c2a3f3055f45',
    names:
      'features.0.weight:3x1024 features.0.bias:1024 features.2.weight:1024x512 features.2.bias:512 features.4.weight:512x64 features.4.bias:64 labels.0.weight:3x128 labels.0.bias:128 labels.2.weight:128x64 labels.2.bias:64 combine.0.weight:128x512 combine.0.bias:512 combine.2.weight:512x256 combine.2.bias:256 combine.4.weight:256x128 combine.4.bias:128 combine.6.weight:128x64 combine.6.bias:64 combine.8.weight:64x1 combine.8.bias:1',
    forwardFlops: 1612672,
    evalLogits: [-2.8258824169569152e-9, -2.937873055941509e-9, -1.6694752247303768e-9, -2.857707404047005e-9],
    features: [0, 0, 2.499174911463342e-7, 0, 7.12355188170477e-8, 0],
  },
  'nn-crl': {
    inputDim: 6,
    weights: '9408a687491cf32a8390a719061e302b6bba0cf3cedc6f3a3b220d69f4c67cba',
    names:
      'layers.0.weight:6x128 layers.0.bias:128 layers.3.weight:128x64 layers.3.bias:64 layers.6.weight:64x64 layers.6.bias:64 layers.7.weight:64x2 layers.7.bias:2',
    forwardFlops: 26368,
    evalLogits: [
      -0.10311435163021088, 0.08742797374725342, -0.12717770040035248, 0.09636414051055908, -0.1607896089553833, 0.10506097972393036, -0.18667736649513245,
      0.10621367394924164,
    ],
    features: [0.12130981683731079, 0.21667519211769104, 0.07582448422908783, -0.03072860650718212, -0.23551209270954132, -0.08941171318292618],
    trainLogits: [
      -0.07111626118421555, 0.07367546856403351, -0.29707854986190796, 0.13489341735839844, -0.15752387046813965, 0.0762142613530159, -0.26188352704048157,
      0.11443216353654861,
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

describe('createAttackModel keeps its weights and outputs bit for bit', () => {
  for (const [kind, pinned] of Object.entries(before) as [AttackModelKind, (typeof before)[AttackModelKind]][]) {
    it(`${kind}: the same weights, checkpoint names, FLOPs, logits and features for seed 7`, () => {
      const model = createAttackModel(kind, { inputDim: pinned.inputDim, seed: 7 });
      const x = tf.tensor2d(
        Float32Array.from({ length: 4 * pinned.inputDim }, (_, i) => 2 * Math.sin(i + 1)),
        [4, pinned.inputDim],
      );
      expect(weightsDigest(model.trainableVariables)).toBe(pinned.weights);
      expect(
        model
          .namedVariables()
          .map((v) => `${v.name}:${v.variable.shape.join('x')}`)
          .join(' '),
      ).toBe(pinned.names);
      expect(model.forwardFlops()).toBe(pinned.forwardFlops);
      const evaluation = tf.tidy(() => {
        const out = model.forward(x, { training: false });
        return { logits: Array.from(out.logits.dataSync()), features: Array.from(out.features!.dataSync()).slice(0, 6) };
      });
      expect(evaluation).toEqual({ logits: pinned.evalLogits, features: pinned.features });
      const training = tf.tidy(() => Array.from(model.forward(x, { training: true, seed: 11 }).logits.dataSync()));
      expect(training).toEqual(pinned.trainLogits ?? pinned.evalLogits);
      x.dispose();
      model.dispose();
    });
  }
});
