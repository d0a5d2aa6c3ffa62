import { describe, expect, it } from 'vitest';
import { CRL_REGIME, CRL_REGIMES, crlRegime } from './table1';

describe("the regime gate states the paper's regime next to ours", () => {
  it('names the regime the paper reports (its table) and the thresholds used here', () => {
    expect(CRL_REGIME.why).toMatch(/CRL Table 1a reports CE at 100 % train \/ 70\.3 % test, NN-AUC 88\.1 on CIFAR-10.*Ours: CE train ≥ 99 %/);
  });

  it("gives each column the paper's own CE values (Table 1a–c, ResNet18), which the thresholds let through", () => {
    // CRL Table 1a/1b/1c, ResNet18 / CE: 100.00 / 70.31, 100.00 / 58.06, 100.00 / 93.04.
    expect(CRL_REGIMES.map((r) => [r.column, r.classes, r.regime.paper?.trainAccuracy, Number(r.regime.paper?.testAccuracy?.toFixed(6))])).toEqual([
      ['CIFAR-10', 10, 1, 0.7031],
      ['CIFAR-100', 100, 1, 0.5806],
      ['SVHN', 10, 1, 0.9304],
    ]);
    expect(crlRegime('cifar10').paper).toEqual(CRL_REGIME.paper);
    for (const { regime, classes } of CRL_REGIMES) {
      const { trainAccuracy, testAccuracy } = regime.paper!;
      expect(trainAccuracy!).toBeGreaterThanOrEqual(regime.minTrainAccuracy);
      expect(testAccuracy!).toBeGreaterThanOrEqual(regime.minTestOverChance / classes);
      expect(trainAccuracy! - testAccuracy!).toBeGreaterThan(regime.minGap);
    }
  });
});
