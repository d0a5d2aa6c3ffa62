import { countParameters } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWideResNet } from './wide-resnet';
import { checkForwardContract, groupSummary, randomBatch, sgdLosses, useCpu } from './test-utils/classifier-checks';

beforeAll(useCpu);

describe('createWideResNet', () => {
  it('WRN-16-8 has the PyTorch parameter count and FLOPs', async () => {
    // Hand count for C = 10 (widths 16 → 128, 256, 512; 2 blocks per group):
    // stem 432; group 1: 168,224 + 295,424; group 2: 918,272 + 1,180,672; group 3: 3,671,552 + 4,720,640;
    // final BN 1,024; fc 5,130 → 10,961,370 (scripts/reference-counts.py agrees).
    const model = createWideResNet({ numClasses: 10 });
    expect(countParameters(model)).toBe(10_961_370);
    expect(model.forwardFlops()).toBe(3_096_291_328);
    expect(model.featureDim).toBe(512);
    const groups = groupSummary(model);
    expect(groups.slice(0, 3)).toEqual(['conv1:conv', 'block1.layer.0.bn1:batchnorm', 'block1.layer.0.conv1:conv']);
    expect(groups).toContain('block2.layer.0.convShortcut:conv');
    expect(groups).not.toContain('block2.layer.1.convShortcut:conv');
    expect(groups.slice(-2)).toEqual(['bn1:batchnorm', 'fc:dense']);
    model.dispose();
  });

  it('full WRN-16-8 satisfies the forward contract at 4×4', async () => {
    const model = createWideResNet({ numClasses: 10, inputShape: [4, 4, 3] });
    await checkForwardContract(model);
    model.dispose();
  });

  it('trains (WRN-10-1 with block dropout)', async () => {
    const model = createWideResNet({ numClasses: 4, depth: 10, widen: 1, blockDropout: 0.1, inputShape: [8, 8, 3], seed: 5 });
    const x = randomBatch(8, [8, 8, 3], 3);
    const losses = await sgdLosses(model, x, [0, 1, 2, 3, 0, 1, 2, 3], 4, 0.1);
    expect(losses[3]!).toBeLessThan(losses[0]!);
    x.dispose();
    model.dispose();
  });

  it('rejects a depth that is not 6n + 4', async () => {
    expect(() => createWideResNet({ numClasses: 10, depth: 12 })).toThrow('createWideResNet: depth must be an integer 6n+4 ≥ 10, got 12');
  });
});
