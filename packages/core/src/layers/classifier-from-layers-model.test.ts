import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { sgd } from '../sgd';
import { syntheticClassification } from '../testing/index';
import { train } from '../train';
import { evaluate } from '../predict';
import { classifierFromLayersModel } from './classifier-from-layers-model';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

function plainModel() {
  return tfl.sequential({
    layers: [
      tfl.layers.dense({ inputShape: [6], units: 12, activation: 'tanh', name: 'hidden' }),
      tfl.layers.batchNormalization({ name: 'bn' }),
      tfl.layers.dense({ units: 3, name: 'out' }),
    ],
  });
}

describe('classifierFromLayersModel', () => {
  it('exposes logits, penultimate features and parameter groups of a plain tfjs model', () => {
    const c = classifierFromLayersModel(plainModel());
    expect(c.numClasses).toBe(3);
    expect(c.inputShape).toEqual([6]);
    expect(c.featureDim).toBe(12);
    expect(c.parameterGroups.map((g) => [g.name, g.kind])).toEqual([
      ['hidden', 'dense'],
      ['bn', 'batchnorm'],
      ['out', 'dense'],
    ]);
    expect(c.stateVariables).toHaveLength(2);
    const before = tf.memory().numTensors;
    const x = tf.ones([2, 6]);
    const { logits, features } = c.forward(x, { training: false });
    expect(logits.shape).toEqual([2, 3]);
    expect(features.shape).toEqual([2, 12]);
    tf.dispose([x, logits, features]);
    expect(tf.memory().numTensors).toBe(before);
    c.dispose();
  });

  it('trains with the @mia/core loop (loss decreases, no leaks)', async () => {
    const data = syntheticClassification({ size: 120, numFeatures: 6, numClasses: 3, noise: 0.5, seed: 2 });
    const c = classifierFromLayersModel(plainModel());
    const startLoss = evaluate(c, data).loss;
    const before = tf.memory().numTensors;
    const optimizer = sgd({ lr: 0.1, momentum: 0.9 });
    await train(c, data, { epochs: 4, batchSize: 16, optimizer, progressBar: false });
    optimizer.dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(evaluate(c, data).loss).toBeLessThan(startLoss * 0.6);
    c.dispose();
    data.dispose();
  });

  it('turns probabilities into log-probabilities and rejects an unknown feature layer', () => {
    const m = tfl.sequential({ layers: [tfl.layers.dense({ inputShape: [2], units: 3, activation: 'softmax' })] });
    expect(() => classifierFromLayersModel(m, { featureLayer: 'nope' })).toThrow(/options.featureLayer must name a layer of the model/);
    const c = classifierFromLayersModel(m, { outputs: 'probabilities', featureLayer: 0 });
    const x = tf.tensor2d([[1, -1]]);
    const { logits } = c.forward(x, { training: false });
    const p = m.predict(x) as tf.Tensor;
    expect(Array.from(tf.softmax(logits).dataSync()).map((v) => +v.toFixed(5))).toEqual(Array.from(p.dataSync()).map((v) => +v.toFixed(5)));
    c.dispose();
  });
});
