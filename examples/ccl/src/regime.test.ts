import { describe, expect, it } from 'vitest';
import { CCL_REGIME } from './table1';

describe("the regime gate states the paper's regime next to ours", () => {
  it('names the regime the paper reports (its table) and the thresholds used here', () => {
    expect(CCL_REGIME.why).toMatch(/Table 1, w\/o: Texas 0\.551.*29\.67 %.*Ours: the docs\/protocol\.md §5\.1 defaults/);
  });
});
