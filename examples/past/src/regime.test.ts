import { describe, expect, it } from 'vitest';
import { PAST_REGIME } from './table1';

describe("the regime gate states the paper's regime next to ours", () => {
  it('names the regime the paper reports (its table) and the thresholds used here', () => {
    expect(PAST_REGIME.why).toMatch(/PAST tunes "a roughly converged model" \(§3\.2\).*Table 1, w\/o: Texas 0\.557.*Ours: undefended train ≥ 99 %/);
  });
});
