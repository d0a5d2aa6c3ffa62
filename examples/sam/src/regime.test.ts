import { describe, expect, it } from 'vitest';
import { SAM_REGIME } from './column-claims';

describe("the regime gate states the paper's regime next to ours", () => {
  it('names the regime the paper reports (its table) and the thresholds used here', () => {
    expect(SAM_REGIME.why).toMatch(
      /Table 4 reports SGD at 99\.98 % train \/ 80\.30 % test with a best single-query attack at 77\.04 % on CIFAR-100.*Ours: the docs\/protocol\.md §5\.1 defaults/,
    );
  });
});
