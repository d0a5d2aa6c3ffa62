import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { crossEntropy, InvalidArgumentError, sgd, train, type Classifier } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { epsilonOf } from '../accountant/epsilon-of';
import { maxRelativeDifference, naiveClippedMean } from '../test-utils/naive-dp';
import { dpSgdPlugin, type DpSgdPluginOptions } from './dp-sgd-plugin';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const snapshot = (model: Classifier) => model.trainableVariables.map((v) => Float32Array.from(v.dataSync()));
const quiet = { progressBar: false } as const;

describe('dpSgdPlugin', () => {
  it("without noise, one step of train equals the naive clipped mean (shuffle: the loop's batch; poisson at q = 1: all data, ÷ qN)", async () => {
    for (const sampling of ['shuffle', 'poisson'] as const) {
      const data = syntheticClassification({ size: 16, numFeatures: 5, numClasses: 3, seed: 1 });
      const model = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
      const x = data.gather(Int32Array.from({ length: 16 }, (_, i) => i));
      const labels = tf.tensor1d(data.y, 'int32');
      const naive = naiveClippedMean(
        (i) => crossEntropy(model.forward(tf.slice(x, i, 1), { training: true }).logits, tf.slice(labels, i, 1) as tf.Tensor1D),
        16,
        model.trainableVariables,
        1.5,
        16,
      );
      expect(naive.norms.some((n) => n > 1.5) && naive.norms.some((n) => n < 1.5), naive.norms.join()).toBe(true);
      const before = snapshot(model);
      const plugin = dpSgdPlugin({ clipNorm: 1.5, noiseMultiplier: 0, sampling, sampleRate: 1, data });
      await train(model, data, { epochs: 1, batchSize: 16, shuffle: false, optimizer: sgd({ lr: 1 }), plugins: [plugin], ...quiet });
      const after = snapshot(model);
      model.trainableVariables.forEach((v, k) => {
        const step = before[k]!.map((b, j) => b - after[k]![j]!); // lr = 1: w ← w − g
        expect(maxRelativeDifference(step, naive.grads.get(v.name)!), `${sampling} ${v.name}`).toBeLessThan(1e-4);
      });
      tf.dispose([x, labels]);
      model.dispose();
      data.dispose();
    }
  });

  it('Poisson runs are bit-reproducible for a seed, report (ε, δ) of the steps run, and leak nothing', async () => {
    const data = syntheticClassification({ size: 40, numFeatures: 5, numClasses: 3, seed: 1 });
    const run = async (seed: number) => {
      const model = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
      const plugin = dpSgdPlugin({ clipNorm: 1, noiseMultiplier: 1.1, sampleRate: 0.25, data });
      const tensors = tf.memory().numTensors;
      await train(model, data, { epochs: 2, batchSize: 10, seed, optimizer: sgd({ lr: 0.2 }), plugins: [plugin], ...quiet });
      expect(tf.memory().numTensors).toBe(tensors);
      const weights = snapshot(model).map((w) => Array.from(w));
      model.dispose();
      return { weights, privacy: plugin.privacy(1e-5) };
    };
    const a = await run(5);
    const b = await run(5);
    const c = await run(6);
    expect(a.weights).toEqual(b.weights);
    expect(a.weights).not.toEqual(c.weights);
    // 2 epochs × ⌈40/10⌉ batches = 8 steps at q = 0.25, σ = 1.1.
    const want = epsilonOf({ sampleRate: 0.25, noiseMultiplier: 1.1, steps: 8, delta: 1e-5 });
    expect(a.privacy).toEqual({ ...want, delta: 1e-5, steps: 8, sampleRate: 0.25, noiseMultiplier: 1.1, clipNorm: 1, sampling: 'poisson', covered: true });
    data.dispose();
  });

  it('with tapedForward (per-layer norms, one backward pass) trains to the same weights as the per-example loop', async () => {
    const data = syntheticClassification({ size: 24, numFeatures: 5, numClasses: 3, seed: 1 });
    const tapedForward: DpSgdPluginOptions['tapedForward'] = (model, x, tape) => {
      const groups = model.parameterGroups;
      let h = x as tf.Tensor2D;
      groups.forEach((g, i) => {
        h = tape.dense(h, g.weight, g.bias);
        if (i + 1 < groups.length) h = tf.tanh(h);
      });
      return h;
    };
    const run = async (taped: boolean) => {
      const model = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
      const plugin = dpSgdPlugin({ clipNorm: 0.5, noiseMultiplier: 0.8, sampleRate: 0.5, data, ...(taped ? { tapedForward } : {}) });
      const tensors = tf.memory().numTensors;
      await train(model, data, { epochs: 2, batchSize: 12, seed: 3, optimizer: sgd({ lr: 0.3 }), plugins: [plugin], ...quiet });
      expect(tf.memory().numTensors).toBe(tensors);
      const weights = snapshot(model);
      model.dispose();
      return weights;
    };
    const loop = await run(false);
    const taped = await run(true);
    loop.forEach((w, k) => expect(maxRelativeDifference(taped[k]!, w)).toBeLessThan(1e-4));
    expect(() => dpSgdPlugin({ clipNorm: 1, noiseMultiplier: 1, sampleRate: 0.5, data, tapedForward, loss: crossEntropy })).toThrow(
      'dpSgdPlugin: loss must be absent with tapedForward',
    );
    data.dispose();
  });

  it('shuffled fixed-size batches are reported as not covered by the accountant', async () => {
    const data = syntheticClassification({ size: 40, numFeatures: 5, numClasses: 3, seed: 1 });
    const model = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
    const plugin = dpSgdPlugin({ clipNorm: 1, noiseMultiplier: 1, sampling: 'shuffle' });
    await train(model, data, { epochs: 1, batchSize: 8, optimizer: sgd({ lr: 0.1 }), plugins: [plugin], ...quiet });
    const p = plugin.privacy(1e-5);
    expect(p).toMatchObject({ sampling: 'shuffle', covered: false, steps: 5, sampleRate: 0.2 });
    expect(() => plugin.privacy(0)).toThrow('dpSgdPlugin.privacy: delta must be a number in (0, 1), got 0');
    model.dispose();
    data.dispose();
  });

  it('refuses a model with batch normalization, naming the modules', async () => {
    const data = syntheticClassification({ size: 16, numFeatures: 5, numClasses: 3, seed: 1 });
    const model = tinyMlp({ inputDim: 5, hidden: [6], numClasses: 3, seed: 2 });
    const withBn: Classifier = {
      ...model,
      parameterGroups: [...model.parameterGroups, { name: 'bn1', kind: 'batchnorm', weight: model.trainableVariables[0]! }],
    };
    const plugin = dpSgdPlugin({ clipNorm: 1, noiseMultiplier: 1, sampleRate: 0.5, data });
    const run = train(withBn, data, { epochs: 1, batchSize: 8, optimizer: sgd({ lr: 0.1 }), plugins: [plugin], ...quiet });
    await expect(run).rejects.toThrow(InvalidArgumentError);
    await expect(run).rejects.toThrow('dpSgdPlugin: model must have no batch normalization');
    await expect(run).rejects.toThrow('got batch-norm modules bn1');
    model.dispose();
    data.dispose();
  });

  it('rejects bad options naming the argument', () => {
    expect(() => dpSgdPlugin({ clipNorm: 1, noiseMultiplier: 1 })).toThrow(
      "dpSgdPlugin: sampleRate must be a number in (0, 1] with sampling 'poisson', got undefined",
    );
    expect(() => dpSgdPlugin({ clipNorm: 1, noiseMultiplier: 1, sampleRate: 0.1 })).toThrow(
      "dpSgdPlugin: data must be the training data (a LabeledData) with sampling 'poisson', got undefined",
    );
    expect(() => dpSgdPlugin({ clipNorm: -1, noiseMultiplier: 1, sampling: 'shuffle' })).toThrow('dpSgdPlugin: clipNorm must be a number > 0, got -1');
    expect(() => dpSgdPlugin({ clipNorm: 1, noiseMultiplier: 1, sampling: 'fixed' as 'shuffle' })).toThrow(
      'dpSgdPlugin: sampling must be one of "poisson", "shuffle", got "fixed"',
    );
  });
});
