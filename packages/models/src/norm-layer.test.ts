import * as tf from '@tensorflow/tfjs-core';
import { countParameters } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createModel } from './create-model';
import { groupsFor } from './norm-layer';
import { createResNet } from './resnet';
import { deserializeClassifier, serializeClassifier } from './serialize-classifier';
import { createSmallCnn } from './small-cnn';
import { checkForwardContract, groupSummary, randomBatch, sgdLosses, useCpu } from './test-utils/classifier-checks';

beforeAll(useCpu);

describe('groupsFor', () => {
  it('is the largest divisor of the channels not above the maximum', () => {
    expect([32, 64, 512, 16, 3, 48, 24, 7, 1].map((c) => groupsFor(c, 32))).toEqual([32, 32, 32, 16, 3, 24, 24, 7, 1]);
    expect(groupsFor(64, 16)).toBe(16);
    expect(groupsFor(48, 5)).toBe(4);
  });
});

describe("norm: 'group' and 'none'", () => {
  it("small-cnn: GroupNorm where BatchNorm was (same names and trainable parameters, no state); 'none' drops them", () => {
    const group = createSmallCnn({ numClasses: 10, norm: 'group' });
    expect(countParameters(group)).toBe(104_298); // as with BatchNorm: γ and β per channel
    expect(group.stateVariables).toEqual([]);
    expect(groupSummary(group)).toEqual([
      'f.0:conv',
      'f.1:groupnorm',
      'f.3:conv',
      'f.4:groupnorm',
      'f.7:conv',
      'f.8:groupnorm',
      'f.11:conv',
      'f.12:groupnorm',
      'fc:dense',
    ]);
    expect(group.config).toMatchObject({ norm: 'group', normGroups: 32 });
    const none = createSmallCnn({ numClasses: 10, norm: 'none' });
    expect(countParameters(none)).toBe(104_298 - 2 * (32 + 32 + 64 + 128));
    expect(groupSummary(none)).toEqual(['f.0:conv', 'f.3:conv', 'f.7:conv', 'f.11:conv', 'fc:dense']);
    // The default keeps the configs (and checkpoints) of BatchNorm models as they were.
    const batch = createSmallCnn({ numClasses: 10 });
    expect('norm' in batch.config).toBe(false);
    [group, none, batch].forEach((m) => m.dispose());
  });

  it('ResNet-18 width 32: GroupNorm(32, C) in every block, the same trainable parameters as with BatchNorm', () => {
    const bn = createResNet({ numClasses: 10, width: 32 });
    const gn = createModel('resnet18', { numClasses: 10, width: 32, norm: 'group' });
    expect(countParameters(gn)).toBe(countParameters(bn));
    expect(gn.stateVariables).toEqual([]);
    const kinds = groupSummary(gn);
    expect(kinds).toContain('layer2.0.downsample.1:groupnorm');
    expect(kinds.filter((k) => k.endsWith(':groupnorm'))).toHaveLength(20);
    expect(kinds.some((k) => k.endsWith(':batchnorm'))).toBe(false);
    [bn, gn].forEach((m) => m.dispose());
  });

  it('GroupNorm models satisfy the forward contract, train, and round-trip through a checkpoint', async () => {
    const model = createResNet({ numClasses: 4, width: 4, norm: 'group', normGroups: 2, inputShape: [8, 8, 3], seed: 2 });
    await checkForwardContract(model);
    const x = randomBatch(8, [8, 8, 3], 9);
    const losses = await sgdLosses(model, x, [0, 1, 2, 3, 0, 1, 2, 3], 4, 0.01);
    expect(losses[3]!, losses.join()).toBeLessThan(losses[0]!);
    const copy = await deserializeClassifier(await serializeClassifier(model));
    expect(copy.config).toEqual(model.config);
    const a = tf.tidy(() => model.forward(x, { training: false }).logits.arraySync());
    const b = tf.tidy(() => copy.forward(x, { training: false }).logits.arraySync());
    expect(b).toEqual(a);
    [x, model, copy].forEach((t) => t.dispose());
  });

  it('rejects a bad norm or group count', () => {
    expect(() => createSmallCnn({ numClasses: 2, norm: 'layer' as 'group' })).toThrow(/createSmallCnn: norm must be 'batch', 'group' or 'none', got "layer"/);
    expect(() => createResNet({ numClasses: 2, norm: 'group', normGroups: 0 })).toThrow(/createResNet: normGroups must be a positive integer, got 0/);
  });
});
