import { describe, expect, it } from 'vitest';
import { CRL_REGIME } from './table1';

describe("the regime gate states the paper's regime next to ours", () => {
  it('names the regime the paper reports (its table) and the thresholds used here', () => {
    expect(CRL_REGIME.why).toMatch(/CRL Table 1a reports CE at 100 % train \/ 70\.3 % test, NN-AUC 88\.1 on CIFAR-10.*Ours: CE train ≥ 99 %/);
  });
});
