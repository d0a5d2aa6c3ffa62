import { InvalidArgumentError } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { llmLossAttack, minKAttack, minKPlusPlusAttack, referenceRatioAttack, tokenLogprobRecord, zlibRatioAttack, type TokenLogprobRecord } from '../index';

// Record A: T = 5. Hand values: mean log p = −7.6/5 = −1.52 (NLL 1.52).
// Min-K++ z_t = (log p − μ)/σ = (0.5/0.5, −1/1, 0.5/0.25, −1/2, 0.4/0.2) = (1, −1, 2, −0.5, 2).
// Reference: mean log p_ref = −2.5 (NLL_ref 2.5).
const a = tokenLogprobRecord({
  id: 'a',
  logprobs: [-1, -2, -0.5, -4, -0.1],
  mu: [-1.5, -1, -1, -3, -0.5],
  sigma: [0.5, 1, 0.25, 2, 0.2],
  refLogprobs: [-2, -3],
  zlibBytes: 38,
});
// Record B: T = 2, log p (−0.2, −0.6): mean −0.4; z = ((−0.2+1)/0.4, (−0.6+1)/0.4) = (2, 1); ref mean −0.5.
const b = tokenLogprobRecord({ id: 'b', logprobs: [-0.2, -0.6], mu: [-1, -1], sigma: [0.4, 0.4], refLogprobs: [-0.5], zlibBytes: 8 });
const records: TokenLogprobRecord[] = [a, b];
const scores = (attack: { score(r: readonly TokenLogprobRecord[]): Float64Array }) => Array.from(attack.score(records));

describe('language-model attacks against hand-computed values', () => {
  it('loss: the mean log-probability (−NLL)', () => {
    const [sa, sb] = scores(llmLossAttack());
    expect(sa).toBeCloseTo(-1.52, 12);
    expect(sb).toBeCloseTo(-0.4, 12);
  });

  it('zlib: −NLL / zlib bytes', () => {
    const [sa, sb] = scores(zlibRatioAttack());
    expect(sa).toBeCloseTo(-1.52 / 38, 12);
    expect(sb).toBeCloseTo(-0.4 / 8, 12);
  });

  it('Min-K%: the mean of the ⌊k·T⌋ (≥ 1) lowest log-probabilities', () => {
    expect(scores(minKAttack({ k: 0.4 }))[0]).toBeCloseTo(-3, 12); // −4, −2
    expect(scores(minKAttack())).toEqual([-4, -0.6]); // k = 0.2: ⌊1⌋ and ⌊0.4⌋ → 1 token each
    expect(scores(minKAttack({ k: 1 }))[1]).toBeCloseTo(-0.4, 12);
  });

  it('Min-K%++: the mean of the lowest ⌊k·T⌋ normalised scores (log p − μ)/σ', () => {
    expect(scores(minKPlusPlusAttack({ k: 0.4 }))[0]).toBeCloseTo(-0.75, 12); // −1, −0.5
    const [sa, sb] = scores(minKPlusPlusAttack({ k: 1 }));
    expect(sa).toBeCloseTo(3.5 / 5, 12);
    expect(sb).toBeCloseTo(1.5, 12);
  });

  it('reference: NLL_ref − NLL_target, or −NLL_target / NLL_ref', () => {
    const [da, db] = scores(referenceRatioAttack());
    expect(da).toBeCloseTo(2.5 - 1.52, 12);
    expect(db).toBeCloseTo(0.5 - 0.4, 12);
    const [ra, rb] = scores(referenceRatioAttack({ form: 'ratio' }));
    expect(ra).toBeCloseTo(-1.52 / 2.5, 12);
    expect(rb).toBeCloseTo(-0.4 / 0.5, 12);
  });

  it('names: defaults and overrides', () => {
    expect([llmLossAttack(), zlibRatioAttack(), minKAttack(), minKPlusPlusAttack(), referenceRatioAttack()].map((x) => x.name)).toEqual([
      'llm-loss',
      'zlib',
      'min-k',
      'min-k++',
      'reference-ratio',
    ]);
    expect(minKAttack({ name: 'mink-10', k: 0.1 }).name).toBe('mink-10');
  });
});

describe('language-model attacks refuse what they cannot score', () => {
  const bare = [tokenLogprobRecord({ id: 'x9', logprobs: [-1] })];
  it('names the record that lacks a field the attack needs', () => {
    expect(() => minKPlusPlusAttack().score(bare)).toThrow(/min-k\+\+.score: records\[0\] \(id "x9"\): mu and sigma must each hold 1 values/);
    expect(() => zlibRatioAttack().score(bare)).toThrow(/zlib.score: records\[0\] \(id "x9"\): zlibBytes must be a positive integer/);
    expect(() => referenceRatioAttack().score(bare)).toThrow(/reference-ratio.score: records\[0\] \(id "x9"\): refLogprobs must hold/);
    expect(() => referenceRatioAttack({ form: 'ratio' }).score([tokenLogprobRecord({ id: 'z', logprobs: [-1], refLogprobs: [0] })])).toThrow(
      /reference NLL must be > 0/,
    );
  });

  it('validates every option when the attack is made', () => {
    expect(() => minKAttack({ k: 0 })).toThrow(InvalidArgumentError);
    expect(() => minKAttack({ k: 0 })).toThrow(/minKAttack: k must be a number in \(0, 1\], got 0/);
    expect(() => minKPlusPlusAttack({ k: 1.5 })).toThrow(/minKPlusPlusAttack: k must be a number in \(0, 1\], got 1.5/);
    expect(() => referenceRatioAttack({ form: 'quotient' as never })).toThrow(/form must be one of "difference", "ratio", got "quotient"/);
    expect(() => llmLossAttack({ k: 0.2 } as never)).toThrow(/llmLossAttack: k must be no options, got an unknown option/);
    expect(() => minKAttack({ kk: 0.2 } as never)).toThrow(/minKAttack: kk must be one of the options k, got an unknown option/);
  });
});
