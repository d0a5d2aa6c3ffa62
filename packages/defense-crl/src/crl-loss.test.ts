import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { crlLoss } from './crl-loss';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

// Same inputs as the component tests; expected values from the NumPy transcription of
// docs/protocol.md §4.3: ImpRelaxLoss(α = 0.5, t = 1) + 0.5 · relaxed centre loss(α = 0.1, t = 0.5).
const batch = () => ({
  features: tf.tensor2d([
    [1, 2],
    [-1, 0.5],
  ]),
  logits: tf.tensor2d([
    [2, 0, -1],
    [0, 1, 0.5],
  ]),
  labels: tf.tensor1d([0, 2], 'int32'),
  centers: tf.tensor2d([
    [0.5, 0.5],
    [1, -1],
    [0, 1],
  ]),
});
const options = { alpha: 0.5, t: 1, alphaCenter: 0.1, tCenter: 0.5, lambda: 0.5 };
const value = (b: ReturnType<typeof batch>, opts: Parameters<typeof crlLoss>[1]) => {
  const l = crlLoss(b, opts);
  const v = l.dataSync()[0]!;
  tf.dispose([l, b.features, b.logits, b.labels, b.centers]);
  return v;
};

describe('crlLoss', () => {
  it('L = L_rce + λ·L_rcl (odd epoch: 0.8885332 + 0.5·0.2180375)', () => {
    expect(value(batch(), { ...options, epoch: 0 })).toBeCloseTo(0.9975519384514929, 5);
  });
  it('even epoch (both terms relaxed towards their thresholds)', () => {
    expect(value(batch(), { ...options, epoch: 1 })).toBeCloseTo(0.44755193845149294, 5);
  });
  it("ablation 'impRelaxLoss': no centre term, centres not needed", () => {
    const b = batch();
    const l = crlLoss({ logits: b.logits, features: b.features, labels: b.labels }, { ...options, epoch: 0, components: 'impRelaxLoss' });
    expect(l.dataSync()[0]).toBeCloseTo(0.8885332123413338, 5);
    tf.dispose([l, b.features, b.logits, b.labels, b.centers]);
  });
  it("ablation 'relaxedCenterLoss': both terms without normalisation (t = t_cl = 0)", () => {
    expect(value(batch(), { ...options, epoch: 0, components: 'relaxedCenterLoss' })).toBeCloseTo(1.1438078450990101, 5);
  });
  it('rejects missing centres and unknown components', () => {
    const b = batch();
    expect(() => crlLoss({ logits: b.logits, features: b.features, labels: b.labels }, { ...options, epoch: 0 })).toThrow(
      /crlLoss: centers must be given for components 'crl'/,
    );
    expect(() => crlLoss(b, { ...options, epoch: 0, components: 'center' as never })).toThrow(
      /components must be one of "crl", "impRelaxLoss", "relaxedCenterLoss"/,
    );
    tf.dispose([b.features, b.logits, b.labels, b.centers]);
  });
  it('leaks no tensor', () => {
    const b = batch();
    const before = tf.memory().numTensors;
    crlLoss(b, { ...options, epoch: 0 }).dispose();
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([b.features, b.logits, b.labels, b.centers]);
  });
});
