import type { ModelSignals } from '@mia/attacks';
import { describe, expect, it } from 'vitest';
import { divergenceWarning, learningRateKnobs } from './warnings';

/** Signals of `n` members of a 10-class task, each with loss `loss`. */
const members = (loss: number, n = 4) => ({ size: n, numClasses: 10, loss: new Float64Array(n).fill(loss) }) as unknown as ModelSignals;
const training = { lr: 0.1 };

describe('learningRateKnobs', () => {
  it("names training.lr, unless dp-sgd's own params.lr replaced it", () => {
    expect(learningRateKnobs({ name: 'none' }, training)).toEqual([{ path: 'training.lr', value: 0.1 }]);
    expect(learningRateKnobs({ name: 'dp-sgd', params: { clipNorm: 1, noiseMultiplier: 1 } }, training)).toEqual([{ path: 'training.lr', value: 0.1 }]);
    expect(learningRateKnobs({ name: 'dp-sgd', params: { clipNorm: 1, noiseMultiplier: 1, lr: 0.5 } }, training)).toEqual([{ path: 'params.lr', value: 0.5 }]);
    // Another defense's lr means something else (MemGuard's attack model): the model trained at training.lr.
    expect(learningRateKnobs({ name: 'memguard', params: { lr: 0.001 } }, training)).toEqual([{ path: 'training.lr', value: 0.1 }]);
  });

  it("names both of PAST's phases: its base's rate and its own tuning rate (default 0.01)", () => {
    expect(learningRateKnobs({ name: 'past', params: {} }, training)).toEqual([
      { path: 'training.lr', value: 0.1 },
      { path: 'params.lr', value: 0.01 },
    ]);
    expect(learningRateKnobs({ name: 'past', params: { lr: 0.02, base: { name: 'dp-sgd', params: { lr: 0.5 } } } }, training)).toEqual([
      { path: 'params.base.params.lr', value: 0.5 },
      { path: 'params.lr', value: 0.02 },
    ]);
  });
});

describe('divergenceWarning', () => {
  it('is silent for a model that learned, and quotes the learning rate the row trained with when it diverged', () => {
    expect(divergenceWarning('undefended target', members(0.5), [{ path: 'training.lr', value: 0.1 }])).toBeUndefined();
    // 3·ln 10 = 6.91: a mean loss of 50 is far worse than a uniform guess.
    expect(divergenceWarning('undefended target', members(50), learningRateKnobs({ name: 'none' }, training))).toBe(
      "undefended target diverged: its mean loss on its own training set is 50.0, worse than a uniform guess (ln 10 = 2.30), so its row is meaningless; lower training.lr (0.1) or check the defense's parameters",
    );
    // The reported case: a DP row that trained at its own lr 0.5 must not be told to lower training.lr (0.1).
    const dp = learningRateKnobs({ name: 'dp-sgd', params: { lr: 0.5 } }, training);
    expect(divergenceWarning('DP ε=4 target', members(Number.NaN), dp)).toBe(
      "DP ε=4 target diverged: its mean loss on its own training set is NaN, worse than a uniform guess (ln 10 = 2.30), so its row is meaningless; lower the row's params.lr (0.5) or check the defense's parameters",
    );
    expect(divergenceWarning('PAST target', members(Infinity), learningRateKnobs({ name: 'past', params: {} }, training))).toMatch(
      /; lower training\.lr \(0\.1\) or the row's params\.lr \(0\.01\) or check the defense's parameters$/,
    );
  });
});
