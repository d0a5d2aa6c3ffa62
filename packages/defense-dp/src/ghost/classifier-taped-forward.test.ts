import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { crossEntropyPerExample, labeledData, seededRandom, sgd, train, type Classifier } from '@mia/core';
import { createMlp, createResNet, createSmallCnn } from '@mia/models';
import { beforeAll, describe, expect, it } from 'vitest';
import { dpSgdPlugin } from '../dp-sgd/dp-sgd-plugin';
import { maxRelativeDifference, naiveClippedMean } from '../test-utils/naive-dp';
import { classifierTapedForward } from './classifier-taped-forward';
import { dpSgdTapedGradients } from './dp-sgd-taped-gradients';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

// The @mia/models architectures at small sizes, with GroupNorm where the papers have BatchNorm:
// dense + tanh; conv + GroupNorm + ReLU + max-pool + global pooling; and ResNet-18's residual
// blocks with PyTorch's symmetric padding at stride 2 and 1×1 downsampling convolutions.
const cases: Array<{ name: string; build: () => Classifier; shape: number[] }> = [
  { name: 'Purchase MLP (600-…-100 topology, narrow)', build: () => createMlp({ numClasses: 4, inputDim: 12, hidden: [16, 8], seed: 1 }), shape: [12] },
  { name: "small-cnn, norm: 'group'", build: () => createSmallCnn({ numClasses: 4, inputShape: [4, 4, 3], norm: 'group', seed: 2 }), shape: [4, 4, 3] },
  {
    name: "ResNet-18, width 4, norm: 'group' (2 groups)",
    build: () => createResNet({ numClasses: 4, inputShape: [8, 8, 3], width: 4, norm: 'group', normGroups: 2, seed: 3 }),
    shape: [8, 8, 3],
  },
  {
    name: "ResNet-18, width 4, norm: 'none'",
    build: () => createResNet({ numClasses: 4, inputShape: [8, 8, 3], width: 4, norm: 'none', seed: 4 }),
    shape: [8, 8, 3],
  },
];

describe('classifierTapedForward with the @mia/models architectures', () => {
  it.each(cases)('without noise, the DP update equals the naive per-example loop: $name', ({ build, shape }) => {
    const model = build();
    const n = 6;
    const x = tf.randomNormal([n, ...shape], 0, 1, 'float32', 7);
    const y = tf.tensor1d([0, 1, 2, 3, 1, 2], 'int32');
    const variables = model.trainableVariables;
    const lossOf = (i: number) =>
      tf.tidy(
        () => tf.mean(crossEntropyPerExample(model.forward(tf.slice(x, i, 1), { training: true }).logits, tf.slice(y, i, 1) as tf.Tensor1D)) as tf.Scalar,
      );
    // A clip norm at the median per-example norm: some examples are clipped, some are not.
    const clipNorm = median(naiveClippedMean(lossOf, n, variables, 1, 1).norms);
    const naive = naiveClippedMean(lossOf, n, variables, clipNorm, 5);
    expect(naive.norms.some((v) => v > clipNorm) && naive.norms.some((v) => v < clipNorm), naive.norms.join()).toBe(true);
    const before = tf.memory().numTensors;
    const { grads, loss } = dpSgdTapedGradients(
      (xb, tape) => classifierTapedForward(model, xb, tape, { seed: 0 }),
      { x, y },
      {
        variables,
        clipNorm,
        noiseMultiplier: 0,
        expectedBatchSize: 5,
        random: seededRandom(1),
      },
    );
    expect(tf.memory().numTensors).toBe(before + variables.length + 1); // the gradients and the loss, nothing else
    for (const v of variables) expect(maxRelativeDifference(grads[v.name]!.dataSync() as Float32Array, naive.grads.get(v.name)!), v.name).toBeLessThan(2e-4);
    tf.dispose([...Object.values(grads), loss, x, y]);
    model.dispose();
  });

  it('trains a GroupNorm ResNet with dpSgdPlugin bit-reproducibly for a seed, and leaks nothing', async () => {
    const images = tf.randomNormal([24, 8, 8, 3], 0, 1, 'float32', 5);
    const data = labeledData({ x: images, y: Int32Array.from({ length: 24 }, (_, i) => i % 4), numClasses: 4 });
    const run = async () => {
      const model = createResNet({ numClasses: 4, inputShape: [8, 8, 3], width: 4, norm: 'group', normGroups: 2, seed: 3 });
      const dp = dpSgdPlugin({ data, sampleRate: 0.25, clipNorm: 1, noiseMultiplier: 1.1, tapedForward: classifierTapedForward });
      await train(model, data, { epochs: 1, batchSize: 6, optimizer: sgd({ lr: 0.1 }), plugins: [dp], seed: 9, progressBar: false });
      const weights = model.trainableVariables.map((v) => Array.from(v.dataSync()));
      model.dispose();
      return { weights, privacy: dp.privacy(1e-5) };
    };
    const first = await run();
    const before = tf.memory().numTensors;
    const second = await run();
    expect(tf.memory().numTensors).toBe(before);
    expect(second.weights).toEqual(first.weights);
    expect(second.privacy.steps).toBe(4);
    expect(second.privacy.epsilon).toBeGreaterThan(0);
    images.dispose();
  });

  it('a BatchNorm model refuses the tape, and so does an evaluation-mode forward', () => {
    const bn = createSmallCnn({ numClasses: 2, inputShape: [4, 4, 3] });
    const gn = createSmallCnn({ numClasses: 2, inputShape: [4, 4, 3], norm: 'group' });
    const x = tf.zeros([2, 4, 4, 3]);
    const y = tf.tensor1d([0, 1], 'int32');
    const options = { variables: bn.trainableVariables, clipNorm: 1, noiseMultiplier: 0, expectedBatchSize: 2, random: seededRandom(1) };
    expect(() => dpSgdTapedGradients((xb, tape) => classifierTapedForward(bn, xb, tape, { seed: 0 }), { x, y }, options)).toThrow(
      /f\.1: batch norm cannot run through a per-example tape .* build the model with norm: 'group' or 'none'/,
    );
    expect(() => gn.forward(x, { training: false, tape: {} as never })).toThrow('small-cnn.forward: options.tape needs training: true, got training: false');
    tf.dispose([x, y]);
    bn.dispose();
    gn.dispose();
  });
});
