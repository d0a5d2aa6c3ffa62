import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useCpu } from '../test-utils/setup';
import { createAttackNetwork } from '@mia/core';
import { bestEpochPlugin } from './best-epoch-plugin';

beforeAll(useCpu);

describe('bestEpochPlugin', () => {
  it('restores the weights of the strictly best epoch and frees its snapshot', async () => {
    const net = createAttackNetwork({ inputDim: 2, layers: [{ units: 2 }] });
    const w = net.trainableVariables[0]!;
    const scores = [0.5, 0.9, 0.9, 0.7];
    let epoch = 0;
    const plugin = bestEpochPlugin(net, () => scores[epoch]!);
    const before = tf.memory().numTensors;
    for (; epoch < scores.length; epoch++) {
      tf.tidy(() => w.assign(tf.fill([2, 2], epoch))); // the "training" of this epoch
      await plugin.onEpochEnd!({ model: net, epoch, epochs: 4, learningRate: 0, loss: 0, accuracy: 0 });
    }
    expect(plugin.bestEpoch).toBe(1); // the tie at epoch 2 does not replace it
    expect(plugin.bestScore).toBe(0.9);
    plugin.restore();
    expect([...w.dataSync()]).toEqual([1, 1, 1, 1]);
    plugin.dispose();
    expect(tf.memory().numTensors).toBe(before);
    net.dispose();
  });
});
