import { countParameters } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createResNet } from './resnet';
import { checkForwardContract, groupSummary, randomBatch, rms, sgdLosses, useCpu, yieldToEventLoop } from './test-utils/classifier-checks';

beforeAll(useCpu);

describe('createResNet', () => {
  it('has the PyTorch parameter counts and FLOPs', async () => {
    // References: torchvision resnet18/resnet34 (num_classes=1000) = 11,689,512 / 21,797,672 (torchvision
    // docs); CIFAR stem (kuangliu ResNet18, bench/pytorch/models_torch.py) with C = 10 = 11,173,962;
    // ResNet-34 CIFAR = 21,282,122 (same stem/fc delta as the ResNet-18 pair). Width 16: scripts/reference-counts.py.
    // FLOPs: forward_flops() of anchors/pytorch (2·MACs of conv + linear), via scripts/reference-counts.py.
    const cases = [
      [{ depth: 18, numClasses: 10 }, 11_173_962, 1_110_845_440],
      [{ depth: 34, numClasses: 10 }, 21_282_122, null],
      [{ depth: 18, numClasses: 1000, stem: 'imagenet', inputShape: [224, 224, 3] }, 11_689_512, 3_628_146_688],
      [{ depth: 34, numClasses: 1000, stem: 'imagenet' }, 21_797_672, 150_544_384],
      [{ depth: 18, numClasses: 10, width: 16 }, 701_466, 70_093_312],
    ] as const;
    for (const [options, params, flops] of cases) {
      const model = createResNet(options);
      expect(countParameters(model)).toBe(params);
      if (flops !== null) expect(model.forwardFlops()).toBe(flops);
      model.dispose();
      await yieldToEventLoop();
    }
  });

  it('names parameter groups like torchvision and initialises the ImageNet variant like torchvision', async () => {
    const model = createResNet({ numClasses: 10, stem: 'imagenet', width: 8 });
    const groups = groupSummary(model);
    expect(groups.slice(0, 4)).toEqual(['conv1:conv', 'bn1:batchnorm', 'layer1.0.conv1:conv', 'layer1.0.bn1:batchnorm']);
    expect(groups).toContain('layer2.0.downsample.0:conv');
    expect(groups).toContain('layer4.1.bn2:batchnorm');
    expect(groups.at(-1)).toBe('fc:dense');
    expect(groups).toHaveLength(41);
    expect(model.stateVariables).toHaveLength(2 * 20); // 20 BN modules × (running_mean, running_var)
    // kaiming_normal_(mode='fan_out'): std √(2/(8·7·7)) = 0.0714 for conv1 (3·7·7·8 = 1176 values).
    const std = rms(model.parameterGroups[0]!.weight);
    expect(std).toBeGreaterThan(0.0714 * 0.9);
    expect(std).toBeLessThan(0.0714 * 1.1);
    expect(Array.from(model.parameterGroups[1]!.weight.dataSync())).toEqual(new Array(8).fill(1));
    model.dispose();
  });

  it('full-width ResNet-18 (both stems) satisfies the forward contract', async () => {
    const cifar = createResNet({ numClasses: 10, inputShape: [4, 4, 3] });
    await checkForwardContract(cifar);
    expect(cifar.featureDim).toBe(512);
    cifar.dispose();
    const imagenet = createResNet({ numClasses: 7, stem: 'imagenet', inputShape: [32, 32, 3] });
    await checkForwardContract(imagenet);
    imagenet.dispose();
  });

  it('trains: SGD steps reduce the loss (narrow nets, both stems)', async () => {
    for (const [stem, size] of [
      ['cifar', 8],
      ['imagenet', 16],
    ] as const) {
      const model = createResNet({ numClasses: 4, stem, width: 4, inputShape: [size, size, 3], seed: 2 });
      const x = randomBatch(8, [size, size, 3], 9);
      const losses = await sgdLosses(model, x, [0, 1, 2, 3, 0, 1, 2, 3], 4, 0.1);
      expect(losses[3]!).toBeLessThan(losses[0]!);
      x.dispose();
      model.dispose();
    }
  });

  it('rejects bad options', async () => {
    expect(() => createResNet({ numClasses: 10, depth: 50 as 18 })).toThrow('createResNet: depth must be 18 or 34, got 50');
    expect(() => createResNet({ numClasses: 10, stem: 'tiny' as 'cifar' })).toThrow(/stem must be 'cifar' or 'imagenet', got "tiny"/);
    expect(() => createResNet({ numClasses: 10, inputShape: [32, 32] })).toThrow(/inputShape must be 3 positive integers/);
  });
});
