import { describe, expect, it } from 'vitest';
import { CCL_REGIME, CCL_TABLE1_REGIME } from './table1';

describe("the regime gate states the paper's regime next to ours", () => {
  it('names the regime the paper reports (its table) and the thresholds used here', () => {
    expect(CCL_REGIME.why).toMatch(/Table 1, w\/o: Texas 0\.551.*29\.67 %.*Ours: the docs\/protocol\.md §5\.1 defaults/);
    expect(CCL_TABLE1_REGIME.why).toMatch(/300 epochs on CIFAR-10 \(§5\.1\).*Table 1, w\/o: Texas 0\.551.*Ours: undefended train ≥ 99 %/);
  });

  it("Table 1's gate asks the undefended model to fit its members (≥ 99 %, docs/anchors.md); the figures keep the §5.1 defaults", () => {
    expect(CCL_TABLE1_REGIME.minTrainAccuracy).toBe(0.99);
    expect(CCL_REGIME.minTrainAccuracy).toBe(0.9);
  });
});
