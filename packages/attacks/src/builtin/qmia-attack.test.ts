import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeMismatchError, seededRandom } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useCpu } from '../test-utils/setup';
import { qmiaAttack, signalsFromLogits, signalsFromLosses, signalsFromProbabilities, type QmiaRecords } from '../index';

beforeAll(useCpu);

/**
 * n records with one feature x ∈ {0, 1} (alternating); the target's hinge score is s ~ N(0, 1) when
 * x = 0 and N(4, 0.5²) when x = 1 (2 classes, label 1, logits [0, s]). The non-members' 0.9-quantile
 * is therefore 1.2816 for x = 0 and 4 + 0.5·1.2816 = 4.6408 for x = 1 (Φ⁻¹(0.9) = 1.2816).
 */
function records(n: number, seed: number, shift = 0): QmiaRecords {
  const random = seededRandom(seed);
  const x = Array.from({ length: n }, (_, i) => i % 2);
  const s = x.map((v) => (v === 0 ? random.normal() : 4 + 0.5 * random.normal()) + shift);
  return {
    signals: signalsFromLogits(
      s.flatMap((v) => [0, v]),
      new Array(n).fill(1),
      2,
    ),
    features: Float32Array.from(x),
  };
}
const probe = (): QmiaRecords => ({ signals: signalsFromLogits([0, 0, 0, 0], [1, 1], 2), features: Float32Array.from([0, 1]) });
const small = { hidden: [16], epochs: 15, batchSize: 64, learningRate: 0.01, labelInput: false } as const;

describe('qmiaAttack', () => {
  it('the hinge score: z_y − max_{j≠y} z_j, the same from logits or probabilities (score = s − threshold)', async () => {
    const attack = qmiaAttack({ ...small, epochs: 1 });
    await attack.prepare(records(64, 1));
    // Logits [2, 5, 1]: label 1 → 5 − 2 = 3; label 0 → 2 − 5 = −3; label 2 → 1 − 5 = −4.
    const logits = [2, 5, 1, 2, 5, 1, 2, 5, 1];
    const labels = [1, 0, 2];
    const probabilities = tf.tidy(() => Array.from(tf.softmax(tf.tensor2d(logits, [3, 3])).dataSync()));
    const three = qmiaAttack({ ...small, epochs: 1 });
    const fit: QmiaRecords = { signals: signalsFromLogits([2, 5, 1, 0, 1, 2], [1, 0], 3), features: Float32Array.from([0, 1]) };
    await three.prepare(fit);
    for (const signals of [signalsFromLogits(logits, labels, 3), signalsFromProbabilities(probabilities, labels, 3)]) {
      const target = { signals, features: Float32Array.from([0, 1, 0]) };
      const s = three.score(target).map((v, i) => v + three.thresholds(target)[i]!);
      [3, -3, -4].forEach((v, i) => expect(s[i]).toBeCloseTo(v, 4));
    }
    attack.dispose();
    three.dispose();
  });

  for (const objective of ['pinball', 'gaussian'] as const) {
    it(`${objective}: learns the conditional (1 − α)-quantile of the non-members' score, calibrated at α`, async () => {
      const attack = qmiaAttack({ ...small, objective, alpha: 0.1, seed: 3 });
      await attack.prepare(records(2000, 1));
      const [q0, q1] = attack.thresholds(probe());
      expect(Math.abs(q0! - 1.2816)).toBeLessThan(0.3);
      expect(Math.abs(q1! - 4.6408)).toBeLessThan(0.3);
      // Fresh non-members are flagged at about α; members whose score is shifted up by 1.5 much more often.
      const rate = (r: QmiaRecords) => attack.decide(r).reduce((a, v) => a + v, 0) / r.signals.size;
      expect(Math.abs(rate(records(2000, 2)) - 0.1)).toBeLessThan(0.04);
      expect(rate(records(2000, 3, 1.5))).toBeGreaterThan(0.5);
      // decide is score > 0 (pinball) or (s − μ)/σ > Φ⁻¹(1 − α) (gaussian).
      const target = records(50, 4, 0.5);
      const cut = objective === 'pinball' ? 0 : 1.2815515655446004;
      expect(Array.from(attack.decide(target))).toEqual(Array.from(attack.score(target), (v) => (v > cut ? 1 : 0)));
      attack.dispose();
    });
  }

  it('is seeded: the same seed gives the same scores, another seed others; it leaves no tensor behind', async () => {
    const run = async (seed: number, features: 'array' | 'tensor') => {
      const fit = records(300, 5);
      const x = tf.tensor2d(fit.features as Float32Array, [300, 1]);
      const attack = qmiaAttack({ ...small, epochs: 2, labelInput: true, seed });
      await attack.prepare(features === 'tensor' ? { ...fit, features: x } : fit);
      const scores = attack.score(records(40, 6));
      attack.dispose();
      x.dispose();
      return Array.from(scores);
    };
    const before = tf.memory().numTensors;
    const a = await run(1, 'array');
    expect(tf.memory().numTensors).toBe(before);
    expect(await run(1, 'tensor')).toEqual(a);
    expect(await run(2, 'array')).not.toEqual(a);
  });

  it('validates every param before anything trains', () => {
    expect(() => qmiaAttack({ alpha: 1.5 })).toThrow(InvalidArgumentError);
    expect(() => qmiaAttack({ alpha: 1.5, epochs: 0 })).toThrow(
      /qmiaAttack: alpha must be a number in \(0, 1\), got 1.5; qmiaAttack: epochs must be an integer ≥ 1, got 0/,
    );
    expect(() => qmiaAttack({ alpah: 0.1 } as never)).toThrow(/qmiaAttack: alpah must be one of the options alpha, objective/);
    expect(() => qmiaAttack({ hidden: [16, 0] })).toThrow(/hidden\[1\] must be an integer ≥ 1, got 0/);
    expect(() => qmiaAttack({ objective: 'laplace' as never })).toThrow(/objective must be one of "pinball", "gaussian"/);
  });

  it('refuses records it cannot use, naming the argument', async () => {
    const attack = qmiaAttack({ ...small, epochs: 1 });
    expect(() => attack.score(records(4, 1))).toThrow(/qmia.score: call prepare\(publicNonMembers\) before scoring/);
    await expect(attack.prepare({ signals: signalsFromLosses([0.1, 0.2], [0, 1], 2), features: Float32Array.from([0, 1]) })).rejects.toThrow(
      /the hinge score needs logits or probabilities, got loss-only signals; use score: 'phi'/,
    );
    await expect(attack.prepare({ ...records(4, 1), features: Float32Array.from([0, 1, 0]) })).rejects.toThrow(ShapeMismatchError);
    await attack.prepare(records(64, 1));
    expect(() => attack.score({ ...records(4, 1), features: Float32Array.from([0, 1, 0, 1, 0, 1, 0, 1]) })).toThrow(
      /qmia.score: records.features must have 1 values per record like the public non-members, got 2/,
    );
    expect(() => attack.score({ signals: signalsFromLogits([0, 0, 0], [1], 3), features: Float32Array.from([0]) })).toThrow(/must have 2 classes/);
    attack.dispose();
  });

  it("score: 'phi' works on loss-only signals", async () => {
    const attack = qmiaAttack({ ...small, epochs: 1, score: 'phi' });
    const fit = { signals: signalsFromLosses([0.1, 0.2, 0.3, 0.4], [0, 1, 0, 1], 2), features: Float32Array.from([0, 1, 0, 1]) };
    await attack.prepare(fit);
    const s = attack.score(fit).map((v, i) => v + attack.thresholds(fit)[i]!);
    s.forEach((v, i) => expect(v).toBeCloseTo(fit.signals.phi[i]!, 4));
    attack.dispose();
  });
});
