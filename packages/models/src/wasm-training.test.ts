import * as tf from '@tensorflow/tfjs-core';
import { useWasmTraining } from '@mia/backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createModel } from './create-model';
import { randomBatch, sgdLosses } from './test-utils/classifier-checks';

// Every architecture at full width takes a few SGD steps on the wasm backend (the embedded default,
// with @mia/backend-wasm's kernels) on one fixed batch of 2: the loss must fall. Spatial sizes are
// the smallest each architecture accepts, to keep the suite fast; VGG11's five pools need 32×32.
beforeAll(async () => {
  await useWasmTraining();
});

const CASES: Array<[name: string, shape: number[], options?: Record<string, unknown>]> = [
  ['mlp', [600]],
  ['small-cnn', [8, 8, 3]],
  ['resnet-narrow', [8, 8, 3]],
  ['resnet18', [8, 8, 3]],
  ['resnet34', [8, 8, 3]],
  ['resnet18', [32, 32, 3], { stem: 'imagenet' }],
  ['vgg11-bn', [32, 32, 3]],
  ['densenet121', [8, 8, 3], { stem: 'cifar' }],
  ['wrn-16-8', [4, 4, 3]],
  ['googlenet', [4, 4, 3]],
  ['inception-v4', [8, 8, 3], { dropout: 0 }],
];

describe('every architecture trains on the wasm backend', () => {
  for (const [name, shape, options] of CASES) {
    it(`${name} ${shape.join('×')}${options ? ` ${JSON.stringify(options)}` : ''}: loss falls over 4 steps, nothing leaks`, async () => {
      expect(tf.getBackend()).toBe('wasm');
      const model = createModel(name, { numClasses: 10, inputShape: shape, seed: 3, ...options });
      const x = randomBatch(2, shape, 5);
      const losses = await sgdLosses(model, x, [1, 7], 4, 0.02);
      expect(losses[3]!).toBeLessThan(losses[0]!);
      x.dispose();
      model.dispose();
    }, 300_000);
  }
});
