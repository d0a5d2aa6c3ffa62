import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import * as tfl from '@tensorflow/tfjs-layers';
import { sgd, train, type Classifier } from '@mia/core';
import { classifierFromLayersModel } from '@mia/core/layers';
import { syntheticClassification } from '@mia/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pastPlugin } from './past-plugin';

beforeAll(async () => {
  await tf.setBackend('cpu');
});
const members = syntheticClassification({ size: 8, numFeatures: 6, numClasses: 3, noise: 1, seed: 41 });
const nonMembers = syntheticClassification({ size: 8, numFeatures: 6, numClasses: 3, noise: 1, seed: 42 });
afterAll(() => {
  members.dispose();
  nonMembers.dispose();
});

/** A user's own tfjs-layers model with batch norm, adapted to a Classifier (PAST on "any classifier"). */
function bnModel(): { classifier: Classifier; model: tfl.LayersModel } {
  const model = tfl.sequential({
    layers: [
      tfl.layers.dense({ units: 5, inputShape: [6], kernelInitializer: tfl.initializers.randomUniform({ minval: -0.5, maxval: 0.5, seed: 1 }) }),
      tfl.layers.batchNormalization({ gammaInitializer: tfl.initializers.randomUniform({ minval: 0.5, maxval: 1.5, seed: 2 }) }),
      tfl.layers.activation({ activation: 'tanh' }),
      tfl.layers.dense({ units: 3, kernelInitializer: tfl.initializers.randomUniform({ minval: -0.5, maxval: 0.5, seed: 3 }) }),
    ],
  });
  return { classifier: classifierFromLayersModel(model), model };
}

/** One full-batch step (shuffle off) of `pastPlugin`; returns every variable by name, trainable and BN state. */
async function oneStep(options: { lambda: number; adaptive: boolean }) {
  const { classifier, model } = bnModel();
  const optimizer = sgd({ lr: 0.1 });
  await train(classifier, members, {
    epochs: 1,
    batchSize: 8,
    shuffle: false,
    optimizer,
    plugins: [pastPlugin({ nonMembers, lambda: options.lambda, alpha: 2, adaptive: options.adaptive, batchSize: 8 })],
    progressBar: false,
  });
  optimizer.dispose();
  const kinds = classifier.parameterGroups.map((g) => g.kind);
  const values = (vars: readonly tf.Variable[]) => vars.map((v) => Array.from(v.dataSync()));
  const out = { kinds, trainable: values(classifier.trainableVariables), state: values(classifier.stateVariables) };
  model.dispose();
  return out;
}

describe('pastPlugin on a tfjs-layers model with batch norm', () => {
  it('penalises dense kernels and the BN scale only; the non-member pass updates BN running statistics', async () => {
    const plain = await oneStep({ lambda: 0, adaptive: true });
    const past = await oneStep({ lambda: 0.05, adaptive: true });
    const l1 = await oneStep({ lambda: 0.05, adaptive: false });
    expect(plain.kinds).toEqual(['dense', 'batchnorm', 'dense']);
    // trainableVariables: dense kernel, dense bias, BN gamma, BN beta, dense kernel, dense bias.
    const changed = past.trainable.map((v, k) => v.some((x, i) => x !== plain.trainable[k]![i]));
    expect(changed).toEqual([true, false, true, false, true, false]);
    // Running mean/variance: the adaptive run did a train-mode non-member pass, plain L1 did not.
    expect(past.state).toEqual(plain.state);
    expect(l1.state).not.toEqual(past.state);
  });
});
