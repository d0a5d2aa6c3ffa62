import * as tf from '@tensorflow/tfjs-core';
import { countParameters } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMlp } from './mlp';
import { checkForwardContract, groupSummary, randomBatch, rms, sameValues, sgdLosses, useCpu } from './test-utils/classifier-checks';

beforeAll(useCpu);

describe('createMlp', () => {
  it('has the parameter counts of the PyTorch MLPs', async () => {
    // Hand count, docs/protocol.md §2.7: 600·1024+1024 + 1024·512+512 + 512·256+256 + 256·128+128 + 128·100+100
    // = 615,424 + 524,800 + 131,328 + 32,896 + 12,900 = 1,317,348 (PyTorch sum(p.numel()) agrees,
    // scripts/reference-counts.py). Texas: 6169·1024+1024 = 6,318,080 replaces the first term → 7,020,004.
    const purchase = createMlp({ numClasses: 100 });
    const texas = createMlp({ numClasses: 100, inputDim: 6169 });
    expect(countParameters(purchase)).toBe(1_317_348);
    expect(countParameters(texas)).toBe(7_020_004);
    expect(purchase.forwardFlops()).toBe(2_630_656); // 2·Σ in·out, as forward_flops() in anchors/pytorch
    expect(groupSummary(purchase)).toEqual(['features.0:dense', 'features.2:dense', 'features.4:dense', 'features.6:dense', 'classifier:dense']);
    expect(purchase.stateVariables).toHaveLength(0);
    purchase.dispose();
    texas.dispose();
  });

  it('initialises like PyTorch: U(−1/√fan_in, 1/√fan_in) for weights and biases, seeded', async () => {
    const a = createMlp({ numClasses: 100, seed: 3 });
    const b = createMlp({ numClasses: 100, seed: 3 });
    const c = createMlp({ numClasses: 100, seed: 4 });
    const w = a.parameterGroups[0]!.weight.dataSync();
    const bias = a.parameterGroups[4]!.bias!.dataSync();
    const bound = 1 / Math.sqrt(600);
    expect(Math.max(...w.slice(0, 10000).map(Math.abs))).toBeLessThanOrEqual(bound);
    // Uniform on [−B, B] has std B/√3.
    const std = rms(a.parameterGroups[0]!.weight);
    expect(std).toBeCloseTo(bound / Math.sqrt(3), 4);
    expect(Math.max(...bias.map(Math.abs))).toBeLessThanOrEqual(1 / Math.sqrt(128));
    expect(Math.max(...bias.map(Math.abs))).toBeGreaterThan(0.5 / Math.sqrt(128));
    expect(sameValues(b.parameterGroups[0]!.weight.dataSync(), w)).toBe(true);
    expect(sameValues(c.parameterGroups[0]!.weight.dataSync(), w)).toBe(false);
    [a, b, c].forEach((m) => m.dispose());
  });

  it('forward contract, and training reduces the loss', async () => {
    const model = createMlp({ numClasses: 100, seed: 1 });
    await checkForwardContract(model);
    const x = tf.tidy(() => tf.cast(tf.greater(randomBatch(8, [600], 5), 0), 'float32'));
    const losses = await sgdLosses(
      model,
      x,
      Array.from({ length: 8 }, (_, i) => i * 7),
      3,
      0.5,
    );
    expect(losses[2]!).toBeLessThan(losses[0]! - 0.1);
    x.dispose();
    model.dispose();
  });

  it('applies seeded dropout before the last layer only in training mode', async () => {
    const model = createMlp({ numClasses: 10, inputDim: 20, hidden: [32, 16], dropout: 0.5 });
    const x = randomBatch(4, [20]);
    const run = (training: boolean, seed?: number) => tf.tidy(() => model.forward(x, { training, ...(seed === undefined ? {} : { seed }) }).logits.arraySync());
    expect(run(true, 7)).toEqual(run(true, 7));
    expect(run(true, 7)).not.toEqual(run(true, 8));
    expect(run(false)).toEqual(run(false));
    // Without a seed, dropout masks come from a stream derived from the build seed: two identical
    // models give identical training passes, and successive passes differ.
    const twin = createMlp({ numClasses: 10, inputDim: 20, hidden: [32, 16], dropout: 0.5 });
    const unseeded = (m: typeof model) => tf.tidy(() => m.forward(x, { training: true }).logits.arraySync());
    const first = unseeded(model);
    expect(unseeded(twin)).toEqual(first);
    expect(unseeded(model)).not.toEqual(first);
    twin.dispose();
    // Features are taken before the dropout: identical in both modes (no BN in the MLP).
    const f = (training: boolean) => tf.tidy(() => model.forward(x, { training, seed: 1 }).features.arraySync());
    expect(f(true)).toEqual(f(false));
    x.dispose();
    model.dispose();
  });

  it('rejects bad options and inputs with clear errors', async () => {
    expect(() => createMlp({ numClasses: 0 })).toThrow('createMlp: numClasses must be a positive integer, got 0');
    expect(() => createMlp({ numClasses: 2, dropout: 1.5 })).toThrow(/createMlp: dropout must be a number in \[0, 0.999\], got 1.5/);
    const model = createMlp({ numClasses: 2, inputDim: 4, hidden: [3] });
    const x = tf.zeros([2, 5]);
    expect(() => model.forward(x, { training: false })).toThrow('mlp.forward: x must have shape [n, 4], got [2, 5]');
    x.dispose();
    model.dispose();
    expect(() => model.forward(tf.zeros([1, 4]), { training: false })).toThrow(/disposed/);
  });
});
