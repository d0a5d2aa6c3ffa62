import { countParameters } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createInceptionV4 } from './inception-v4';
import { checkForwardContract, groupSummary, useCpu } from './test-utils/classifier-checks';

beforeAll(useCpu);

describe('createInceptionV4', () => {
  it('has the parameter count and FLOPs of the PyTorch re-typing in scripts/reference-counts.py (C = 100: 41,296,516)', async () => {
    const model = createInceptionV4({ numClasses: 100 });
    expect(countParameters(model)).toBe(41_296_516);
    expect(model.forwardFlops()).toBe(15_006_264_064);
    expect(model.featureDim).toBe(1536);
    expect(model.config.dropout).toBe(0.2);
    const groups = groupSummary(model);
    expect(groups.slice(0, 2)).toEqual(['stem.conv1.0.conv:conv', 'stem.conv1.0.bn:batchnorm']);
    expect(groups).toContain('inception_b.InceptionB_6.branch7x7stack.4.conv:conv');
    expect(groups).toContain('inception_c.InceptionC_2.branch3x3stackb.conv:conv');
    expect(groups).toContain('reduction_b.branch3x3.1.conv:conv');
    expect(groups.at(-1)).toBe('linear:dense');
    model.dispose();
  });

  it('satisfies the forward contract at 8×8 (the smallest input its unpadded stem and reductions allow)', async () => {
    // Forward only (a backward pass takes minutes on the stock cpu backend); the asymmetric 1×7/7×1
    // convs and padded average pools are differentiated in layers.test.ts.
    const model = createInceptionV4({ numClasses: 100, inputShape: [8, 8, 3] });
    await checkForwardContract(model);
    model.dispose();
  });
});
