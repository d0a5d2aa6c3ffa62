import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { modelParameterCount } from './create-model';
import { useCpu } from './test-utils/classifier-checks';

beforeAll(useCpu);

describe('modelParameterCount', () => {
  it("counts an architecture's trainable parameters by name (kuangliu's CIFAR ResNet-18: 11,173,962; an MLP by hand) and leaves no tensor behind", () => {
    const before = tf.memory().numTensors;
    expect(modelParameterCount('resnet18', { numClasses: 10, inputShape: [32, 32, 3] })).toBe(11_173_962);
    // 600 → 32 → 4 with biases: 600·32 + 32 + 32·4 + 4.
    expect(modelParameterCount('mlp', { numClasses: 4, inputShape: [600], hidden: [32] })).toBe(600 * 32 + 32 + 32 * 4 + 4);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('rejects an unknown architecture, naming the argument and the choices', () => {
    expect(() => modelParameterCount('resnet19', { numClasses: 10 })).toThrow(/createModel: name must be one of .*resnet18.*, got "resnet19"/);
  });
});
