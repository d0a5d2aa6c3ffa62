import { describe, expect, it } from 'vitest';
import type { ReferenceSignals } from '../signals/model-signals';
import { signalsFromPhi } from '../test-utils/setup';
import { rmiaAttack } from './rmia-attack';

// φ = logit(p) makes the (loss-only) signals' p_y equal p.
const fromProbability = (p: number[]) => signalsFromPhi(p.map((v) => Math.log(v / (1 - v))));

describe('RMIA trimmed mean of the reference signals (PMr trim_mean)', () => {
  // Five OUT references. Point 0: Pr = {.1, .2, .3, .4, .9}: mean .38, trimmed mean (cut int(.2·5) = 1
  // from each end) .3. Point 1: Pr = .4 everywhere. Target Pr = [.6, .72]; a = 1 so Pr(x) = the mean.
  const references: ReferenceSignals = {
    models: [0.1, 0.2, 0.3, 0.4, 0.9].map((p) => fromProbability([p, 0.4])),
    keep: Array.from({ length: 5 }, () => [0, 0]),
  };
  const target = fromProbability([0.6, 0.72]);

  it('offline with trim 0.2: r = [.6/.3, .72/.4] = [2, 1.8] → scores [1, 0]', async () => {
    const a = rmiaAttack({ a: 1, trim: 0.2 });
    await a.prepare(references);
    expect([...a.score(target)]).toEqual([1, 0]);
  });

  it('offline without trim (PMm): r = [.6/.38, 1.8] ≈ [1.58, 1.8] → scores [0, 1]', async () => {
    const a = rmiaAttack({ a: 1 });
    await a.prepare(references);
    expect([...a.score(target)]).toEqual([0, 1]);
  });

  it('rejects a trim outside [0, 0.5) naming it', () => {
    expect(() => rmiaAttack({ trim: 0.5 })).toThrow(/rmiaAttack: trim must be a fraction in \[0, 0\.5\), got 0\.5/);
    expect(() => rmiaAttack({ trim: -0.1 })).toThrow(/got -0\.1/);
  });
});
