import { countParameters } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSmallCnn } from './small-cnn';
import { createVgg11Bn } from './vgg';
import { checkForwardContract, groupSummary, randomBatch, sgdLosses, useCpu } from './test-utils/classifier-checks';

beforeAll(useCpu);

describe('createSmallCnn', () => {
  it('matches SmallCNN of bench/pytorch/models_torch.py: parameters and FLOPs', async () => {
    // Hand count (also scripts/reference-counts.py): convs 896 + 9,248 + 18,496 + 73,856, BN 2·256, fc 1,290 = 104,298.
    // FLOPs: 2·(1024·32·27 + 1024·32·288 + 256·64·288 + 64·128·576 + 10·128) = 39,520,768.
    const model = createSmallCnn({ numClasses: 10 });
    expect(countParameters(model)).toBe(104_298);
    expect(model.forwardFlops()).toBe(39_520_768);
    expect(groupSummary(model)).toEqual([
      'f.0:conv',
      'f.1:batchnorm',
      'f.3:conv',
      'f.4:batchnorm',
      'f.7:conv',
      'f.8:batchnorm',
      'f.11:conv',
      'f.12:batchnorm',
      'fc:dense',
    ]);
    model.dispose();
  });

  it('forward contract and training', async () => {
    const model = createSmallCnn({ numClasses: 4, inputShape: [8, 8, 3], seed: 1 });
    await checkForwardContract(model);
    const x = randomBatch(8, [8, 8, 3], 4);
    const losses = await sgdLosses(model, x, [0, 1, 2, 3, 3, 2, 1, 0], 4, 0.1);
    expect(losses[3]!).toBeLessThan(losses[0]!);
    x.dispose();
    model.dispose();
  });
});

describe('createVgg11Bn', () => {
  it('has the PyTorch parameter count (CIFAR VGG11-BN, C = 10: 9,231,114) and FLOPs', async () => {
    // convs 9,220,480 + BN 5,504 + fc 5,130 (hand count; scripts/reference-counts.py agrees).
    const model = createVgg11Bn({ numClasses: 10 });
    expect(countParameters(model)).toBe(9_231_114);
    expect(model.forwardFlops()).toBe(305_539_072);
    expect(model.parameterGroups.at(-1)!.name).toBe('classifier');
    expect(model.parameterGroups[2]!.name).toBe('features.4'); // conv, BN, ReLU, pool → next conv at index 4
    model.dispose();
  });

  it('satisfies the forward contract at 32×32 (the smallest input its five pools allow)', async () => {
    // No gradient step: a VGG backward pass at 32×32 takes minutes on the stock cpu backend; the
    // layers it uses (conv with bias, BN, max-pool, dense) are trained in the SmallCNN test above.
    const model = createVgg11Bn({ numClasses: 3, seed: 1 });
    await checkForwardContract(model);
    model.dispose();
  });
});
