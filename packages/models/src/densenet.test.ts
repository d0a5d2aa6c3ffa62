import { countParameters } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDenseNet121 } from './densenet';
import { checkForwardContract, groupSummary, randomBatch, rms, sgdLosses, useCpu, yieldToEventLoop } from './test-utils/classifier-checks';

beforeAll(useCpu);

describe('createDenseNet121', () => {
  it('has the PyTorch parameter counts and FLOPs', async () => {
    // torchvision densenet121(): 7,978,856 parameters (torchvision docs), 5,668,323,328 FLOPs at 224×224;
    // num_classes=100: 7,056,356; kuangliu's CIFAR DenseNet121 (3×3 stem, no norm0/pool0), C = 10: 6,956,298.
    // All from scripts/reference-counts.py (PyTorch 1.13, torchvision 0.14).
    const cases = [
      [{ numClasses: 1000, inputShape: [224, 224, 3] }, 7_978_856, 5_668_323_328],
      [{ numClasses: 100 }, 7_056_356, 115_843_072],
      [{ numClasses: 10, stem: 'cifar' }, 6_956_298, 1_776_701_440],
    ] as const;
    for (const [options, params, flops] of cases) {
      const model = createDenseNet121(options);
      expect(countParameters(model)).toBe(params);
      expect(model.forwardFlops()).toBe(flops);
      expect(model.featureDim).toBe(1024);
      model.dispose();
      await yieldToEventLoop();
    }
  });

  it('names groups like torchvision and uses its init (conv N(0, 2/fan_in), classifier bias 0)', async () => {
    const model = createDenseNet121({ numClasses: 10 });
    const groups = groupSummary(model);
    expect(groups.slice(0, 4)).toEqual([
      'features.conv0:conv',
      'features.norm0:batchnorm',
      'features.denseblock1.denselayer1.norm1:batchnorm',
      'features.denseblock1.denselayer1.conv1:conv',
    ]);
    expect(groups).toContain('features.transition3.conv:conv');
    expect(groups).toContain('features.denseblock4.denselayer16.conv2:conv');
    expect(groups.slice(-2)).toEqual(['features.norm5:batchnorm', 'classifier:dense']);
    // conv0: fan_in 3·7·7 = 147 → std √(2/147) = 0.1166.
    expect(rms(model.parameterGroups[0]!.weight)).toBeCloseTo(0.1166, 2);
    expect(Array.from(model.parameterGroups.at(-1)!.bias!.dataSync())).toEqual(new Array(10).fill(0));
    model.dispose();
  });

  it('full DenseNet-121 satisfies the forward contract at a small input (CIFAR stem)', async () => {
    const cifar = createDenseNet121({ numClasses: 5, stem: 'cifar', inputShape: [8, 8, 3] });
    await checkForwardContract(cifar);
    cifar.dispose();
  });

  it('trains (a small torchvision-style DenseNet with the ImageNet stem: growth 4, blocks [2, 2], 8 initial features)', async () => {
    const model = createDenseNet121({ numClasses: 4, growthRate: 4, blocks: [2, 2], initFeatures: 8, inputShape: [16, 16, 3], seed: 3 });
    expect(model.featureDim).toBe(16); // 8 + 2·4 = 16 → transition to 8 → 8 + 2·4 = 16
    const x = randomBatch(8, [16, 16, 3], 2);
    const losses = await sgdLosses(model, x, [0, 1, 2, 3, 0, 1, 2, 3], 4, 0.1);
    expect(losses[3]!).toBeLessThan(losses[0]!);
    x.dispose();
    model.dispose();
  });
});
