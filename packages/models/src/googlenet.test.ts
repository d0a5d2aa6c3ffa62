import { countParameters } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createGoogLeNet } from './googlenet';
import { checkForwardContract, groupSummary, useCpu } from './test-utils/classifier-checks';

beforeAll(useCpu);

describe('createGoogLeNet', () => {
  it('has the PyTorch parameter count (kuangliu CIFAR GoogLeNet, C = 10: 6,166,250) and FLOPs', async () => {
    // scripts/reference-counts.py (PyTorch 1.13).
    const model = createGoogLeNet({ numClasses: 10 });
    expect(countParameters(model)).toBe(6_166_250);
    expect(model.forwardFlops()).toBe(3_043_512_320);
    expect(model.featureDim).toBe(1024);
    const groups = groupSummary(model);
    expect(groups.slice(0, 4)).toEqual(['pre_layers.0:conv', 'pre_layers.1:batchnorm', 'a3.b1.0:conv', 'a3.b1.1:batchnorm']);
    expect(groups).toContain('b5.b3.6:conv');
    expect(groups).toContain('e4.b4.1:conv');
    expect(groups.at(-1)).toBe('linear:dense');
    model.dispose();
  });

  it('satisfies the forward contract at 4×4', async () => {
    // Forward only: one backward pass takes over a minute on the stock cpu backend. The ops it adds
    // (branch concat, padded max-pool) are differentiated in layers.test.ts and densenet.test.ts.
    const model = createGoogLeNet({ numClasses: 10, inputShape: [4, 4, 3] });
    await checkForwardContract(model);
    model.dispose();
  });
});
