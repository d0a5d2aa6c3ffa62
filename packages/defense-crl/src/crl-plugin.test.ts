import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, sgd, train } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { crlLoss } from './crl-loss';
import { crlPlugin } from './crl-plugin';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const hyper = { alpha: 1, t: 0.05, alphaCenter: 0.05, tCenter: 0.05, lambda: 0.5 };

/** ∂L/∂c of CRL's whole objective (`crlLoss`, epoch 0) at the centres `c`, on every example of `data` at once. */
function centreGradient(model: ReturnType<typeof tinyMlp>, data: ReturnType<typeof syntheticClassification>, centers: tf.Variable): Float32Array {
  return tf.tidy(() => {
    const x = data.gather(Int32Array.from({ length: data.size }, (_, i) => i));
    const { logits, features } = model.forward(x, { training: true });
    const labels = tf.tensor1d(data.y, 'int32');
    return tf
      .grad((c: tf.Tensor) => crlLoss({ logits, features, labels, centers: c as tf.Tensor2D }, { ...hyper, epoch: 0 }))(centers)
      .dataSync()
      .slice() as Float32Array;
  });
}

describe('crlPlugin', () => {
  it('moves the centres only through their own optimizer: c₁ = c₀ − lr_c·(λ∂L_rcl/∂c + wd·c₀)', async () => {
    const data = syntheticClassification({ size: 12, numFeatures: 4, numClasses: 3, seed: 2 });
    const model = tinyMlp({ inputDim: 4, hidden: [5], numClasses: 3, seed: 1 });
    const plugin = crlPlugin({ ...hyper, numClasses: 3, featureDim: 5, seed: 9 });
    const c0 = plugin.centers!.dataSync().slice();
    // The expected centre gradient at the starting point, on the full batch (shuffle off).
    const expectedGrad = centreGradient(model, data, plugin.centers!);
    const optimizer = sgd({ lr: 0.5, momentum: 0.9, weightDecay: 5e-4 });
    await train(model, data, { epochs: 1, batchSize: 12, optimizer, plugins: [plugin], shuffle: false, progressBar: false });
    const c1 = plugin.centers!.dataSync();
    let moved = 0;
    for (let k = 0; k < c0.length; k++) {
      // first momentum step: v = d, so the update is exactly lr_c·d
      expect(c1[k]!).toBeCloseTo(c0[k]! - 0.001 * (expectedGrad[k]! + 5e-4 * c0[k]!), 6);
      moved += Math.abs(c1[k]! - c0[k]!);
    }
    expect(moved).toBeGreaterThan(0);
    optimizer.dispose();
    plugin.dispose();
    model.dispose();
    data.dispose();
  });
  it("centerStep 'paper' steps the centres on ∂L_rcl/∂c without λ (CRL Algorithm 1, line 24): c₁ = c₀ − lr_c·(∂L/∂c / λ + wd·c₀)", async () => {
    const data = syntheticClassification({ size: 12, numFeatures: 4, numClasses: 3, seed: 2 });
    const model = tinyMlp({ inputDim: 4, hidden: [5], numClasses: 3, seed: 1 });
    const plugin = crlPlugin({ ...hyper, numClasses: 3, featureDim: 5, seed: 9, centerStep: 'paper' });
    const c0 = plugin.centers!.dataSync().slice();
    // ∂L/∂c of the whole objective is λ·∂L_rcl/∂c (the code's gradient); the paper's step drops the λ.
    const codeGrad = centreGradient(model, data, plugin.centers!);
    const optimizer = sgd({ lr: 0.5, momentum: 0.9, weightDecay: 5e-4 });
    const before = tf.memory().numTensors;
    await train(model, data, { epochs: 1, batchSize: 12, optimizer, plugins: [plugin], shuffle: false, progressBar: false });
    const c1 = plugin.centers!.dataSync();
    let moved = 0;
    for (let k = 0; k < c0.length; k++) {
      expect(c1[k]!).toBeCloseTo(c0[k]! - 0.001 * (codeGrad[k]! / hyper.lambda + 5e-4 * c0[k]!), 6);
      moved += Math.abs(c1[k]! - c0[k]!);
    }
    expect(moved).toBeGreaterThan(0);
    // The scaled gradients are temporaries: nothing is left behind but the optimizers' buffers.
    expect(tf.memory().numTensors - before).toBeLessThanOrEqual(model.trainableVariables.length + 1 + 1);
    expect(() => crlPlugin({ ...hyper, lambda: 0, numClasses: 3, featureDim: 5, centerStep: 'paper' })).toThrow(
      "centerStep 'paper' divides the centres' gradient by λ, so lambda must be > 0, got 0",
    );
    expect(() => crlPlugin({ ...hyper, numClasses: 3, featureDim: 5, centerStep: 'both' as 'paper' })).toThrow(
      `centerStep must be 'code' or 'paper', got "both"`,
    );
    optimizer.dispose();
    plugin.dispose();
    model.dispose();
    data.dispose();
  });

  it('rejects an alpha below the logit-normalisation floor, giving the floor (A18)', () => {
    expect(() => crlPlugin({ numClasses: 100, featureDim: 8, alpha: 3, t: 1 })).toThrow(
      /crlPlugin: alpha must be greater than the logit-normalisation floor .* = 3\.6173 for t = 1, C = 100/,
    );
    expect(() => crlPlugin({ numClasses: 100, featureDim: 8, alpha: 3, t: 1 })).toThrow(InvalidArgumentError);
  });
  it("has no centre variables for components 'impRelaxLoss'", () => {
    const plugin = crlPlugin({ numClasses: 3, featureDim: 5, components: 'impRelaxLoss' });
    expect(plugin.centers).toBeUndefined();
    expect(plugin.variables).toEqual([]);
    plugin.dispose();
  });
  it('trains deterministically, leaks nothing, and checks the feature width', async () => {
    const data = syntheticClassification({ size: 40, numFeatures: 4, numClasses: 3, seed: 3 });
    const run = async (featureDim: number) => {
      const model = tinyMlp({ inputDim: 4, hidden: [6], numClasses: 3, seed: 4 });
      const plugin = crlPlugin({ ...hyper, numClasses: 3, featureDim, seed: 1 });
      const optimizer = sgd({ lr: 0.1, momentum: 0.9, weightDecay: 5e-4 });
      try {
        await train(model, data, { epochs: 2, batchSize: 10, optimizer, plugins: [plugin], seed: 7, progressBar: false });
        return [...model.trainableVariables[0]!.dataSync(), ...plugin.centers!.dataSync()];
      } finally {
        optimizer.dispose();
        plugin.dispose();
        model.dispose();
      }
    };
    const before = tf.memory().numTensors;
    const a = await run(6);
    expect(tf.memory().numTensors).toBe(before);
    expect(await run(6)).toEqual(a);
    await expect(run(5)).rejects.toThrow(/crlPlugin: the model must have featureDim 5 and numClasses 3, got featureDim 6 and numClasses 3/);
    expect(tf.memory().numTensors).toBe(before);
    data.dispose();
  });
});
