import * as tf from '@tensorflow/tfjs-core';
import { countParameters } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAttackModel } from './attack-model';
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
