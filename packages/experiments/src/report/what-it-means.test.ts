import { describe, expect, it } from 'vitest';
import { fakeResults, fakeRow, fakeSe } from '../test-utils/reproduction-fixtures';
import { htmlReport } from './html-report';
import { markdownReport } from './markdown-report';
import { whatItMeans } from './what-it-means';

const undefended = fakeRow('none', { train: 1, test: 0.64, adv: 0.64, se: fakeSe(0.01) });

describe('whatItMeans: one sentence per defense against the undefended model', () => {
  it('a clear privacy gain at the same accuracy (differences judged by 2 SE)', () => {
    const relax = fakeRow('RelaxLoss', { train: 0.8, test: 0.65, adv: 0.5, se: fakeSe(0.01) });
    const [lead, sentence] = whatItMeans(fakeResults([undefended, relax], { classes: 100 }));
    // gap 36 points, SE hypot(1, 1) = 1.4 points from the stored bootstrap SEs.
    expect(lead).toBe(
      'The undefended model overfits (train 100.0 %, test 64.0 %: a 36.0 ± 1.4-point train–test gap) and leaks membership (highest attack advantage 64.0 %).',
    );
    expect(sentence).toBe(
      'RelaxLoss lowers the highest attack advantage from 64.0 % to 50.0 % (Δ -14.0 ± 1.4 points) at the same test accuracy within noise (65.0 % vs 64.0 %).',
    );
  });

  it('a run without attacks (targets alone, e.g. a selection sweep) gets its accuracies only, no leakage', () => {
    const noAttacks = (row: ReturnType<typeof fakeRow>) => ({ ...row, attacks: [], maxAdvantage: 0 });
    const advreg = noAttacks(fakeRow('AdvReg', { train: 0.99, test: 0.5, adv: 0, se: fakeSe(0.01) }));
    const ccl = noAttacks(fakeRow('CCQL', { train: 1, test: 0.63, adv: 0, se: fakeSe(0.01) }));
    const sentences = whatItMeans(fakeResults([noAttacks(undefended), advreg, ccl], { classes: 100 }));
    expect(sentences).toEqual([
      'The undefended model overfits (train 100.0 %, test 64.0 %: a 36.0 ± 1.4-point train–test gap); the run ran no attack, so it measures no leakage.',
      'AdvReg: test accuracy drops from 64.0 % to 50.0 % (Δ -14.0 ± 1.4 points).',
      'CCQL: test accuracy 63.0 % vs 64.0 %, the same within noise.',
    ]);
  });

  it('no privacy gain within noise, and an accuracy cost beyond noise', () => {
    const ccl = fakeRow('CCQL', { train: 1, test: 0.55, adv: 0.63, se: fakeSe(0.01) });
    const [, sentence] = whatItMeans(fakeResults([undefended, ccl], { classes: 100 }));
    expect(sentence).toMatch(
      /^CCQL leaves the highest attack advantage unchanged within noise \(63\.0 %, Δ -1\.0 ± 1\.4 points\) while test accuracy drops from 64\.0 % to 55\.0 % \(Δ -9\.0 ± 1\.4 points\)\.$/,
    );
  });

  it('warns when the undefended model is near chance or has no gap, and falls back to binomial SEs without stored ones', () => {
    const weak = fakeRow('none', { train: 0.02, test: 0.025, adv: 0.01 });
    const other = fakeRow('CCQL', { train: 0.02, test: 0.02, adv: 0.0 });
    const [lead, sentence] = whatItMeans(fakeResults([weak, other], { classes: 100, n: 2500 }));
    expect(lead).toMatch(
      /not in the regime .*it does not fit its training set \(train 2\.0 %, test 2\.5 %; below the 90\.0 % .*\); its test accuracy 2\.5 % is at most 3× chance \(1\.0 %\)\)/,
    );
    // binomial SEs: advantages sqrt(.01·.99/2500) ≈ 0.2 points and 0 (Δ 1 point > 2 SE); accuracies ≈ 0.31 and 0.28 points (Δ 0.5 < 2 SE).
    expect(sentence).toMatch(/lowers the highest attack advantage from 1\.0 % to 0\.0 % \(Δ -1\.0 ± 0\.2 points\) at the same test accuracy within noise/);
  });

  it('says "does not fit its training set", not "overfit", for a model far below 90 % train accuracy even with a real gap', () => {
    // The newcomer's case: 52.6 % train, 38.4 % test on 100 classes; binomial SEs at n = 1000 ≈ 1.6 and 1.5 points, gap 14.2 > 2 · 2.2.
    const weak = fakeRow('none', { train: 0.526, test: 0.384, adv: 0.2 });
    const [lead] = whatItMeans(fakeResults([weak, fakeRow('CCQL', { train: 0.5, test: 0.38, adv: 0.15 })], { classes: 100 }));
    expect(lead).not.toMatch(/overfit/);
    expect(lead).toBe(
      'The undefended model is not in the regime a membership-inference defense is meant for (it does not fit its training set (train 52.6 %, test 38.4 %; below the 90.0 % train accuracy of docs/protocol.md §5.1; it still does worse on unseen data: a 14.2 ± 2.2-point train–test gap)), so these comparisons say little:',
    );
  });

  it('a fitted model whose train–test gap is within noise does not "overfit"', () => {
    const fitted = fakeRow('none', { train: 0.95, test: 0.94, adv: 0.02, se: fakeSe(0.01) });
    const [lead] = whatItMeans(fakeResults([fitted, fakeRow('CCQL', { train: 0.95, test: 0.94, adv: 0.01 })], { classes: 10 }));
    // gap 1 point < 2 · 1.4 points
    expect(lead).toMatch(
      /not in the regime .*\(it does not generalize worse than it fits \(train 95\.0 %, test 94\.0 %: its train–test gap of 1\.0 ± 1\.4 points is within noise\)\)/,
    );
    expect(lead).not.toMatch(/overfit/);
  });

  it('is empty without an undefended row or without a defense to compare, and the reports carry it', async () => {
    expect(whatItMeans(fakeResults([fakeRow('CCQL', { train: 1, test: 0.5, adv: 0.2 })]))).toEqual([]);
    expect(whatItMeans(fakeResults([undefended]))).toEqual([]);
    const results = fakeResults([undefended, fakeRow('RelaxLoss', { train: 0.8, test: 0.65, adv: 0.5, se: fakeSe(0.01) })], { classes: 100 });
    const config = {
      name: 'x',
      description: 'd',
      model: { name: 'mlp' },
      training: { epochs: 1 },
      scale: 'cpu',
      seed: 0,
      attacks: ['loss'],
    } as unknown as typeof results.config;
    const withConfig = { ...results, config };
    expect(markdownReport(withConfig)).toContain('## What it means\n\nThe undefended model overfits');
    expect(await htmlReport(withConfig)).toMatch(
      /<section class="meaning" data-section="what-it-means"><h2>What it means<\/h2><p>The undefended model overfits/,
    );
  });
});

describe('whatItMeans: the low-FPR view beside the average-case one', () => {
  const withTpr = (row: ReturnType<typeof fakeRow>, tprs: number[]) => ({
    ...row,
    attacks: tprs.map((tpr, i) => ({ ...row.attacks[0]!, attack: `a${i}`, tprAtFpr: [{ fpr: 0.001, tpr, achievedFpr: 0.001 }] })),
  });

  it('gives the best attack’s TPR at 0.1 % FPR for every row, and says the two views differ', () => {
    const relax = fakeRow('RelaxLoss', { train: 0.8, test: 0.65, adv: 0.5, se: fakeSe(0.01) });
    const lines = whatItMeans(fakeResults([withTpr(undefended, [0.0012, 0.0034]), withTpr(relax, [0.002])], { classes: 100 }));
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe(
      "At a 0.1 % false-positive rate the best attack identifies 0.3 % of the undefended model's members, 0.2 % of RelaxLoss's (a random guess identifies 0.1 %): the highest advantage above is an average over all records, this is the risk to the most exposed ones, and the two need not move together.",
    );
  });

  it('says nothing about low FPR when a row recorded no TPR there', () => {
    const relax = fakeRow('RelaxLoss', { train: 0.8, test: 0.65, adv: 0.5, se: fakeSe(0.01) });
    expect(whatItMeans(fakeResults([withTpr(undefended, [0.003]), relax], { classes: 100 }))).toHaveLength(2);
  });
});
