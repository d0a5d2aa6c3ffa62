import { describe, expect, it } from 'vitest';
import { fig7Claims, type Ablation, type AblationPoint } from './fig7-claims';

const point = (approach: Ablation, level: number, acc: number, aucs: number): AblationPoint => ({
  approach,
  level,
  values: { 'Test Acc.': acc, 'Train Acc.': 1, 'NN-Based AUC': aucs, 'Entropy AUC': aucs, 'M-Entropy AUC': aucs, 'Grad-x ℓ2 AUC': aucs },
});

describe('fig7Claims', () => {
  it("evaluates the paper's ablation statements on hand-made points", () => {
    const points = [
      point('ImpRelaxLoss', 1, 0.6, 0.7),
      point('ImpRelaxLoss', 2, 0.55, 0.62),
      point('Relaxed Center Loss', 1, 0.72, 0.75),
      point('Relaxed Center Loss', 2, 0.5, 0.6),
      point('CRL', 1, 0.7, 0.65),
      point('CRL', 2, 0.6, 0.55),
    ];
    const c = fig7Claims(points, { members: 10000, nonMembers: 10000 });
    expect(c.map((x) => x.verdict)).toEqual(['holds', 'holds', 'holds', 'holds', 'holds']);
    // Common privacy level = max(min CRL 0.55, min RCL 0.60) = 0.60: CRL's best there is 0.60 (level 2), RCL's 0.50.
    expect(c[4]!.evidence).toMatch(/^at mean AUC ≤ 60\.0: CRL vs Relaxed Center Loss: 60\.0 vs 50\.0, Δ = \+10\.0 ± 0\.7 \(2 SE = 1\.4; SE from a binomial/);
    expect(c[2]!.evidence).toMatch(/^ImpRelaxLoss > CRL beyond 2 SE in 8\/8/);
    // With 100 examples per side a 2-point accuracy difference is within noise.
    expect(fig7Claims(points, { members: 100, nonMembers: 100 })[0]!.verdict).toBe('within noise');
  });

  it('leaves collapsed points out and is not testable when every point of an approach collapsed', () => {
    const points = [
      point('ImpRelaxLoss', 1, 0.6, 0.7),
      point('Relaxed Center Loss', 1, 0.72, 0.75),
      { ...point('CRL', 1, 0.01, 0.5), collapsed: 'CRL collapsed' },
    ];
    const c = fig7Claims(points, { members: 10000, nonMembers: 10000 });
    expect(c.map((x) => x.verdict)).toEqual(Array(5).fill('not testable'));
    expect(c[0]!.evidence).toMatch(/every point of an approach collapsed \(CRL level 1: CRL collapsed\)/);
  });

  it('says "not evaluated" for every claim when nothing ran', () => {
    expect(fig7Claims([], { members: 1, nonMembers: 1 }).map((x) => x.verdict)).toEqual(Array(5).fill('not evaluated'));
  });
});
