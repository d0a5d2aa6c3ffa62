import { describe, expect, it } from 'vitest';
import { pairIndex, pairedDifferenceSe, pairedRowSe, type PairedRowInput } from './paired-se';
import { rowUncertainty } from './row-uncertainty';

const n = 500;
const hash = (i: number, salt: number) => {
  const x = Math.sin(i * 12.9898 + salt * 78.233) * 43758.5453;
  return x - Math.floor(x);
};
/** A row: members correct with probability pM, non-members with pN, losses and one threshold attack on them. */
function row(label: string, salt: number, o: { pM?: number; pN?: number; flips?: number; flipSalt?: number } = {}): PairedRowInput {
  const flip = (i: number) => o.flips !== undefined && hash(i, o.flipSalt ?? 99) < o.flips;
  const correct = (p: number, offset: number) => Uint8Array.from({ length: n }, (_, i) => (hash(i + offset, salt) < p !== flip(i + offset) ? 1 : 0));
  const membersCorrect = correct(o.pM ?? 0.8, 0);
  const nonMembersCorrect = correct(o.pN ?? 0.6, n);
  const membersLoss = Float64Array.from(membersCorrect, (c, i) => (c === 1 ? 0.1 : 2) + hash(i, salt + 1));
  const nonMembersLoss = Float64Array.from(nonMembersCorrect, (c, i) => (c === 1 ? 0.3 : 2.5) + hash(i + n, salt + 1));
  const scores = Float64Array.from([...membersLoss, ...nonMembersLoss], (l) => -l);
  return { label, input: { membersCorrect, nonMembersCorrect, membersLoss, nonMembersLoss, attacks: [{ name: 'loss', scores }], best: 'loss' } };
}
const unpaired = (a: PairedRowInput, b: PairedRowInput, key: 'trainAccuracy' | 'testAccuracy' | 'lossGap' | 'p1') => {
  const seA = rowUncertainty({ ...a.input, seed: 1 })[key];
  const seB = rowUncertainty({ ...b.input, seed: 2 })[key];
  return Math.hypot(seA, seB);
};

describe('pairIndex', () => {
  it('packs the pairs of 4 rows row by row', () => {
    // (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
    expect([pairIndex(0, 1, 4), pairIndex(0, 2, 4), pairIndex(0, 3, 4), pairIndex(1, 2, 4), pairIndex(1, 3, 4), pairIndex(2, 3, 4)]).toEqual([
      0, 1, 2, 3, 4, 5,
    ]);
  });
});

describe('pairedRowSe', () => {
  const a = row('A', 1);
  // B errs where A errs except on ~5 % of the examples: strongly correlated with A.
  const b = row('B', 1, { flips: 0.05 });
  // C is drawn independently of A.
  const c = row('C', 7);

  it('is seeded: the same rows and seed give identical tables; another seed other SEs', () => {
    const first = pairedRowSe([a, b, c], { seed: 5 });
    expect(pairedRowSe([a, b, c], { seed: 5 })).toEqual(first);
    expect(pairedRowSe([a, b, c], { seed: 6 })!.se.trainAccuracy).not.toEqual(first!.se.trainAccuracy);
    expect(first!.rows).toEqual(['A', 'B', 'C']);
    expect(Object.keys(first!.se)).toEqual(['trainAccuracy', 'testAccuracy', 'lossGap', 'maxAdvantage', 'p1', 'adv:loss', 'auc:loss']);
    for (const values of Object.values(first!.se)) expect(values).toHaveLength(3);
  });

  it('gives a much smaller SE than sqrt(seA² + seB²) for strongly correlated rows, about the same for independent ones', () => {
    const table = pairedRowSe([a, b, c], { seed: 5 })!;
    const results = { pairedSe: table };
    for (const key of ['trainAccuracy', 'testAccuracy', 'lossGap', 'p1'] as const) {
      expect(pairedDifferenceSe(results, 'A', 'B', key)!, key).toBeLessThan(0.5 * unpaired(a, b, key));
      const independent = pairedDifferenceSe(results, 'A', 'C', key)! / unpaired(a, c, key);
      expect(independent, key).toBeGreaterThan(0.75);
      expect(independent, key).toBeLessThan(1.3);
    }
    expect(pairedDifferenceSe(results, 'A', 'B', { attack: 'loss', which: 'auc' })!).toBeLessThan(
      0.5 * pairedDifferenceSe(results, 'A', 'C', { attack: 'loss', which: 'auc' })!,
    );
  });

  it('matches the hand calculation for rows that differ on one member', () => {
    // A − B train accuracy = ±w₀/n per resample, w₀ ~ Binomial(n, 1/n): Var = n·(1/n)(1 − 1/n)/n², SE = sqrt(1 − 1/n)/n.
    const one = row('one', 3);
    const membersCorrect = Uint8Array.from(one.input.membersCorrect);
    membersCorrect[0] = 1 - membersCorrect[0]!;
    const other = { label: 'other', input: { ...one.input, membersCorrect } };
    const se = pairedDifferenceSe({ pairedSe: pairedRowSe([one, other], { seed: 9, resamples: 400 }) }, 'one', 'other', 'trainAccuracy')!;
    expect(se / (Math.sqrt(1 - 1 / n) / n)).toBeGreaterThan(0.85);
    expect(se / (Math.sqrt(1 - 1 / n) / n)).toBeLessThan(1.15);
    // Nothing else differs: the test-accuracy difference is exactly 0 in every resample.
    expect(pairedDifferenceSe({ pairedSe: pairedRowSe([one, other], { seed: 9 }) }, 'one', 'other', 'testAccuracy')).toBe(0);
  });

  it('refuses rows evaluated on different examples, and needs two rows', () => {
    const short = { label: 'short', input: { ...a.input, membersCorrect: Uint8Array.from(a.input.membersCorrect).subarray(1) } };
    expect(() => pairedRowSe([a, short], { seed: 1 })).toThrow(
      /pairedRowSe: rows must be evaluated on the same examples \(500 members, 500 non-members, as rows\[0\] "A"\), got 499 members and 500 non-members in rows\[1\] "short"/,
    );
    expect(pairedRowSe([a], { seed: 1 })).toBeUndefined();
  });
});

describe('pairedDifferenceSe', () => {
  const table = pairedRowSe([row('A', 1), row('B', 2), row('C', 3)], { seed: 4 })!;
  it('is symmetric, 0 for a row against itself, undefined for results without the table', () => {
    expect(pairedDifferenceSe({ pairedSe: table }, 'C', 'A', 'p1')).toBe(pairedDifferenceSe({ pairedSe: table }, 'A', 'C', 'p1'));
    expect(pairedDifferenceSe({ pairedSe: table }, 'C', 'A', 'p1')).toBe(table.se.p1![1]);
    expect(pairedDifferenceSe({ pairedSe: table }, { label: 'B' }, 'B', 'maxAdvantage')).toBe(0);
    expect(pairedDifferenceSe({}, 'A', 'B', 'p1')).toBeUndefined();
    expect(pairedDifferenceSe({ pairedSe: { ...table, se: { ...table.se, p1: [null, null, null] } } }, 'A', 'B', 'p1')).toBeUndefined();
  });
  it('names a bad row or metric with the allowed values', () => {
    expect(() => pairedDifferenceSe({ pairedSe: table }, 'A', 'D', 'p1')).toThrow('pairedDifferenceSe: rowB must be one of "A", "B", "C", got "D"');
    expect(() => pairedDifferenceSe({ pairedSe: table }, 'A', 'B', { attack: 'nn', which: 'auc' })).toThrow(
      'pairedDifferenceSe: metric must be one of trainAccuracy, testAccuracy, lossGap, maxAdvantage, p1, adv:loss, auc:loss, got "auc:nn"',
    );
  });
});
