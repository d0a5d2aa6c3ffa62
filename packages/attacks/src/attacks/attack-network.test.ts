import * as tf from '@tensorflow/tfjs-core';
import { DENSE_BIAS, DENSE_BIAS_GRAD_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT, adam, labeledData, train } from '@mia/core';
import { registerDenseBiasReference, type DenseBiasReference } from '@mia/core/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useCpu } from '../test-utils/setup';
import { createAttackNetwork, type AttackNetworkSpec } from './attack-network';

beforeAll(useCpu);

// NN-MLH's network, and one with a linear hidden layer, dropout and input branches (NN-CRL's and NN-SEL's features).
const mlh: AttackNetworkSpec = { inputDim: 6, seed: 1, layers: [{ units: 8 }, { units: 4 }, { units: 2 }] };
const mixed: AttackNetworkSpec = {
  inputDim: 6,
  seed: 2,
  branches: [
    { start: 0, end: 4, layers: [{ units: 5 }, { units: 3, activation: 'linear' }] },
    { start: 4, end: 6, layers: [{ units: 2 }] },
  ],
  layers: [{ units: 4, dropout: 0.5 }, { units: 1 }],
};

/** The eval logits of a network built from `spec` on fixed inputs, values copied out. */
function logits(spec: AttackNetworkSpec): Float32Array {
  const net = createAttackNetwork(spec);
  const out = tf.tidy(() => net.forward(tf.randomUniform([5, spec.inputDim], -2, 2, 'float32', 3), { training: false }).logits.dataSync() as Float32Array);
  net.dispose();
  return out;
}

describe('createAttackNetwork runs its layers through denseBias', () => {
  let reference: DenseBiasReference | undefined;
  afterEach(() => {
    reference?.dispose();
    reference = undefined;
  });

  it('gives the same logits through the fused kernels (ReLU, linear layers, branches) as through tfjs ops', () => {
    expect.hasAssertions();
    for (const spec of [mlh, mixed]) {
      const unfused = logits(spec);
      reference = registerDenseBiasReference();
      const fused = logits(spec);
      reference.dispose();
      expect(reference.calls[DENSE_BIAS], 'one kernel per dense layer').toBe(spec === mlh ? 3 : 5);
      fused.forEach((v, i) => expect(v).toBeCloseTo(unfused[i]!, 5));
    }
  });

  it('trains on the fused path: one kernel per layer forward, and no input gradient for the first layer', async () => {
    expect.hasAssertions();
    reference = registerDenseBiasReference();
    const net = createAttackNetwork(mlh);
    const x = tf.randomUniform([32, 6], 0, 1, 'float32', 4);
    const data = labeledData({ x, y: Int32Array.from({ length: 32 }, (_, i) => i % 2), numClasses: 2 });
    const optimizer = adam({ lr: 1e-2 });
    await train(net, data, { epochs: 1, batchSize: 16, optimizer, seed: 5, progressBar: false });
    // Two steps of three layers.
    expect(reference.calls).toEqual({ [DENSE_BIAS]: 6, [DENSE_BIAS_GRAD_INPUT]: 4, [DENSE_BIAS_GRAD_WEIGHT]: 6, [DENSE_BIAS_GRAD_BIAS]: 6 });
    optimizer.dispose();
    net.dispose();
    x.dispose();
  });
});
