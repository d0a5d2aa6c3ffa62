import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCclExperiment } from './ccl-experiment';

// The page's experiment in Node (cpu backend), at a reduced scale, so it is tested even where no
// Chromium is installed. browser.test.ts runs it at full scale in the page.
describe('runCclExperiment (Node, cpu)', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('trains, attacks, reports consistent numbers, is deterministic and leaks no tensor', async () => {
    await runCclExperiment({ members: 8, epochs: 1 }); // warm-up: backend and layers state
    const before = tf.memory().numTensors;
    const a = await runCclExperiment({ members: 40, epochs: 20, seed: 1 });
    // tfjs-layers 4.22 keeps one tensor per `model.fit` call whatever the loss (see
    // examples/ccl-plain-tfjs/src/main.test.ts); more than one would be a leak here or in cclLoss.
    expect(tf.memory().numTensors - before).toBeLessThanOrEqual(1);
    expect(a.backend).toBe('cpu');
    expect(a.epochLosses).toHaveLength(20);
    expect(a.epochLosses.at(-1)!).toBeLessThan(a.epochLosses[0]!);
    expect(a.scores).toHaveLength(80);
    expect(a.isMember.reduce((s, m) => s + m, 0)).toBe(40);
    expect(a.balancedAccuracy).toBeCloseTo((1 + a.advantage) / 2, 12);
    for (const v of [a.trainAccuracy, a.testAccuracy, a.auc, a.advantage]) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
    const b = await runCclExperiment({ members: 40, epochs: 20, seed: 1 });
    expect(b).toEqual(a); // no shuffling, seeded data and initialisers: same numbers on one backend
  });

  it('leaks membership through the loss on the overfitted default-scale model', async () => {
    const r = await runCclExperiment({ epochs: 60 });
    expect(r.trainAccuracy).toBeGreaterThan(r.testAccuracy);
    expect(r.auc).toBeGreaterThan(0.6); // measured ≈ 0.81 (seed 0, noise 3): members have lower loss
  });
});
