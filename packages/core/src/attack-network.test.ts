import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { createHash } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DENSE_BIAS, DENSE_BIAS_GRAD_BIAS, DENSE_BIAS_GRAD_INPUT, DENSE_BIAS_GRAD_WEIGHT, adam, labeledData, train } from './index';
import { createAttackNetwork, type AttackNetworkSpec } from './attack-network';
import { attackNetworkSpec, type AttackNetworkKind } from './attack-network-spec';
import { registerDenseBiasReference, type DenseBiasReference } from './testing/dense-bias-reference';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

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

// Weights and logits of the NN attack networks before their specs moved here from @mia/attacks'
// presets (computed with the former createAttackNetwork and the presets' layer lists, seed 7, cpu
// backend). The same digests pin @mia/models' createAttackModel and @mia/defense-baselines'
// selAttackModel (nn-sel): the three former copies drew the same weights.
const before: Record<AttackNetworkKind, { inputDim: number; weights: string; evalLogits: number[]; trainLogits?: number[] }> = {
  'nn-rl': {
    inputDim: 5,
    weights: '5e32cee402c7eb65225a9b390fd000a06db0e30d09332b34119f24877329fa51',
    evalLogits: [0, 0.38759809732437134, 0, -0.050853319466114044, 0, -0.5308000445365906, 0, 0.04924595355987549],
  },
  'nn-mlh': {
    inputDim: 5,
    weights: '6080ceb08929a29cca5fee6a044e757fc2dd5c07955354907a36e405ff6d2fc9',
    evalLogits: [
      -0.07120393961668015, 0.0030638352036476135, -0.20368513464927673, 0.041429586708545685, -0.32132816314697266, -0.10563335567712784, -0.24492886662483215,
      -0.034448981285095215,
    ],
  },
  'nn-sel': {
    inputDim: 6,
    weights: '39b826c44e16a360729ba31696f4e3e84e4ec37d52776d1ffce6c2a3f3055f45',
    evalLogits: [0, -2.8258824169569152e-9, 0, -2.937873055941509e-9, 0, -1.6694752247303768e-9, 0, -2.857707404047005e-9],
  },
  'nn-crl': {
    inputDim: 6,
    weights: '9408a687491cf32a8390a719061e302b6bba0cf3cedc6f3a3b220d69f4c67cba',
    evalLogits: [
      -0.10311435163021088, 0.08742797374725342, -0.12717770040035248, 0.09636414051055908, -0.1607896089553833, 0.10506097972393036, -0.18667736649513245,
      0.10621367394924164,
    ],
    trainLogits: [
      -0.1474640816450119, 0.07718673348426819, -0.09208343923091888, 0.08942118287086487, -0.19154489040374756, 0.19138959050178528, -0.2073182612657547,
      0.1143481433391571,
    ],
  },
};

/** SHA-256 of the bytes of `variables`, in order. */
function weightsDigest(variables: readonly tf.Tensor[]): string {
  const hash = createHash('sha256');
  for (const v of variables) {
    const data = v.dataSync() as Float32Array;
    hash.update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }
  return hash.digest('hex');
}

describe('attackNetworkSpec with createAttackNetwork keeps the former networks bit for bit', () => {
  for (const [kind, pinned] of Object.entries(before) as [AttackNetworkKind, (typeof before)[AttackNetworkKind]][]) {
    it(`${kind}: the same weights and logits (evaluation, and training with dropout seed 11) for seed 7`, () => {
      const net = createAttackNetwork(attackNetworkSpec(kind, pinned.inputDim, 7));
      const x = tf.tensor2d(
        Float32Array.from({ length: 4 * pinned.inputDim }, (_, i) => 2 * Math.sin(i + 1)),
        [4, pinned.inputDim],
      );
      expect(weightsDigest(net.trainableVariables)).toBe(pinned.weights);
      expect(tf.tidy(() => Array.from(net.forward(x, { training: false }).logits.dataSync()))).toEqual(pinned.evalLogits);
      expect(tf.tidy(() => Array.from(net.forward(x, { training: true, seed: 11 }).logits.dataSync()))).toEqual(pinned.trainLogits ?? pinned.evalLogits);
      x.dispose();
      net.dispose();
    });
  }

  it('rejects an unknown kind, an odd nn-sel width, an empty branch and a bad init', () => {
    expect(() => attackNetworkSpec('nn-x' as 'nn-rl', 4)).toThrow('attackNetworkSpec: kind must be nn-rl | nn-mlh | nn-sel | nn-crl, got "nn-x"');
    expect(() => attackNetworkSpec('nn-sel', 5)).toThrow('attackNetworkSpec: inputDim must be even for nn-sel (posterior ⊕ one-hot label), got 5');
    const branch = { start: 0, end: 2, layers: [] };
    expect(() => createAttackNetwork({ inputDim: 2, branches: [branch], layers: [{ units: 1 }] })).toThrow(
      'createAttackNetwork: branches[0].layers must be at least one layer, got []',
    );
    expect(() => createAttackNetwork({ inputDim: 2, layers: [{ units: 1 }], init: { normalStd: 0 } })).toThrow(
      /createAttackNetwork: init must be 'pytorch', 'glorot' or \{ normalStd > 0 \}/,
    );
  });
});
