import { describe, expect, it } from 'vitest';
import { fig7Claims, type Ablation, type AblationPoint } from './fig7-claims';

const point = (approach: Ablation, level: number, acc: number, aucs: number): AblationPoint => ({
  approach, level,
  values: { 'Test Acc.': acc, 'Train Acc.': 1, 'NN-Based AUC': aucs, 'Entropy AUC': aucs, 'M-Entropy AUC': aucs, 'Grad-x ℓ2 AUC': aucs },
});

describe('fig7Claims', () => {
  it('evaluates the paper\'s ablation statements on hand-made points', () => {
    const points = [
      point('ImpRelaxLoss', 1, 0.6, 0.7), point('ImpRelaxLoss', 2, 0.55, 0.62),
      point('Relaxed Center Loss', 1, 0.72, 0.75), point('Relaxed Center Loss', 2, 0.5, 0.6),
      point('CRL', 1, 0.7, 0.65), point('CRL', 2, 0.6, 0.55),
    ];
    const c = fig7Claims(points);
    expect(c.map((x) => x.verdict)).toEqual(['holds', 'holds', 'holds', 'holds', 'holds']);
    // Common privacy level = max(min CRL 0.55, min RCL 0.60) = 0.60: CRL's best there is 0.60 (level 2), RCL's 0.50.
    expect(c[4]!.evidence).toBe('at mean AUC ≤ 60.0: CRL 60.0 vs Relaxed center loss 50.0 (difference 10.0 points)');
    expect(c[2]!.evidence).toMatch(/^ImpRelaxLoss > CRL in 8\/8/);
  });

  it('says "not evaluated" for every claim when nothing ran', () => {
    expect(fig7Claims([]).map((x) => x.verdict)).toEqual(Array(5).fill('not evaluated'));
  });
});
