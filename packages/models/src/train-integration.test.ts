import * as tf from '@tensorflow/tfjs-core';
import { labeledData, sgd, train } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createModel } from './create-model';
import { sameValues, useCpu } from './test-utils/classifier-checks';

beforeAll(useCpu);

describe('models under @mia/core train()', () => {
  it('a BN conv net trains with the shared loop: loss falls, running statistics move, nothing leaks', async () => {
    // 24 images of 3 classes, each class a constant colour plus noise: easy to fit in a few epochs.
    const n = 24;
    const labels = Array.from({ length: n }, (_, i) => i % 3);
    const x = tf.tidy(() =>
      tf.add(
        tf.mul(tf.reshape(tf.oneHot(tf.tensor1d(labels, 'int32'), 3), [n, 1, 1, 3]), tf.ones([n, 6, 6, 3])),
        tf.randomNormal([n, 6, 6, 3], 0, 0.3, 'float32', 1),
      ),
    );
    const data = labeledData({ x, y: labels, numClasses: 3 });
    const model = createModel('resnet-narrow', { numClasses: 3, width: 4, inputShape: [6, 6, 3], seed: 1, dropout: 0.1 });
    const runningMean = model.stateVariables[0]!;
    const initialMean = runningMean.dataSync().slice();
    const optimizer = sgd({ lr: 0.05, momentum: 0.9, weightDecay: 5e-4 });
    const before = tf.memory().numTensors;
    const { history } = await train(model, data, { epochs: 4, batchSize: 8, optimizer, seed: 2, progressBar: false });
    expect(history).toHaveLength(4);
    expect(history[3]!.loss).toBeLessThan(history[0]!.loss);
    expect(sameValues(runningMean.dataSync(), initialMean)).toBe(false);
    optimizer.dispose();
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
    x.dispose();
  });
});
