import { describe, expect, it } from 'vitest';
import type { Approach, Table1Column } from './paper-values';
import { TABLE1_CLAIMS, table1Claim, type MeasuredGroup } from './table1-claims';

// A synthetic group: per approach, [test acc, every AUC].
const group = (values: Record<Approach, [number, number]>): MeasuredGroup => ({
  dataset: 'cifar10',
  model: 'ResNet18',
  get: (a: Approach, c: Table1Column) => (c === 'Test Acc.' ? values[a][0] : c === 'Train Acc.' ? 1 : values[a][1]),
});

describe('Table 1 claims', () => {
  it('hold when CRL has the lowest AUCs at CE-level accuracy, fail otherwise (hand-made groups, tight SEs)', () => {
    const tight = (g: MeasuredGroup): MeasuredGroup => ({ ...g, se: () => 0.001 });
    const good = tight(group({ CE: [0.7, 0.8], AdvReg: [0.6, 0.7], RelaxLoss: [0.65, 0.65], CRL: [0.69, 0.6] }));
    const verdicts = TABLE1_CLAIMS.map(([s, t, strict]) => table1Claim(s, t, [good], [], strict).verdict);
    expect(verdicts).toEqual(['holds', 'holds', 'holds', 'holds', 'holds']);
    // CRL 3 points below CE: the first claim fails on the accuracy condition alone.
    const lossy = tight(group({ CE: [0.7, 0.8], AdvReg: [0.71, 0.7], RelaxLoss: [0.65, 0.65], CRL: [0.67, 0.6] }));
    const v2 = TABLE1_CLAIMS.map(([s, t, strict]) => table1Claim(s, t, [lossy], [], strict));
    expect(v2.map((c) => c.verdict)).toEqual(['does not hold', 'holds', 'holds', 'does not hold', 'does not hold']);
    // Each comparison is a decision with its numbers; the failed one is named in the summary.
    expect(v2[0]!.evidence).toMatch(/^does not hold: fails on cifar10\/ResNet18 Test Acc\. \(Δ −3\.0 ± 0\.1\); holds on cifar10\/ResNet18 NN-Based, /);
    expect(v2[0]!.columns!.find((c) => c.column === 'cifar10/ResNet18 Test Acc.')).toMatchObject({
      verdict: 'does not hold',
      labels: ['CRL', 'CE'],
      offset: -0.02,
    });
    // Without SEs nothing is decided.
    expect(
      table1Claim(TABLE1_CLAIMS[0]![0], TABLE1_CLAIMS[0]![1], [group({ CE: [0.7, 0.8], AdvReg: [0.6, 0.7], RelaxLoss: [0.65, 0.65], CRL: [0.69, 0.6] })], [])
        .verdict,
    ).toBe('not testable');
  });

  it('is "not evaluated" when no group was measured, and still reports the paper\'s own verdict', () => {
    const [statement, test] = TABLE1_CLAIMS[2]!;
    const c = table1Claim(
      statement,
      test,
      [],
      [
        ['cifar10', 'VGG11'],
        ['cifar10', 'ResNet18'],
      ],
    );
    expect(c.verdict).toBe('not evaluated');
    // Paper Table 1a: CRL's AUCs are below AdvReg's on every attack for both models.
    expect(c.evidence).toContain("paper's own numbers (plain inequalities, no SEs): holds in 2/2 groups");
  });

  it("with SEs decides beyond 2 SE only, marks groups out of regime not testable, and is partial over a subset of the paper's groups", () => {
    const values = { CE: [0.7, 0.8], AdvReg: [0.6, 0.7], RelaxLoss: [0.65, 0.65], CRL: [0.69, 0.6] } as Record<Approach, [number, number]>;
    const noisy: MeasuredGroup = { ...group(values), se: () => 0.05 };
    const [s0, t0] = TABLE1_CLAIMS[1]!; // CRL's AUCs ≤ RelaxLoss's: 60.0 vs 65.0 with SE 5 points each → within noise
    expect(table1Claim(s0, t0, [noisy], []).verdict).toBe('within noise');
    expect(table1Claim(s0, t0, [noisy], []).evidence).toContain('CRL 60.0 vs RelaxLoss 65.0, Δ = −5.0 ± 7.1');
    const tight: MeasuredGroup = { ...group(values), se: () => 0.001 };
    expect(table1Claim(s0, t0, [tight], []).verdict).toBe('holds');
    const gated: MeasuredGroup = { ...tight, gate: 'undefended test accuracy 11.7 % < 3× chance (30.0 %)' };
    const c = table1Claim(s0, t0, [gated], []);
    expect(c.verdict).toBe('not testable');
    expect(c.evidence).toContain('cifar10/ResNet18: not testable at this scale: undefended test accuracy 11.7 %');
    expect(c.columns![0]!.reason).toBe('undefended test accuracy 11.7 % < 3× chance (30.0 %)');
    const partial = table1Claim(
      s0,
      t0,
      [tight],
      [
        ['cifar10', 'ResNet18'],
        ['svhn', 'ResNet18'],
      ],
    );
    expect(partial.verdict).toBe('partial');
    expect(partial.evidence).toMatch(/svhn\/ResNet18: not evaluated — not run here/);
  });
});

describe('Table 1 claims: gates per kind of claim', () => {
  it('a saturated group is not testable for the AUC claims but still decides the accuracy claims', () => {
    const values = { CE: [0.7, 0.8], AdvReg: [0.6, 0.7], RelaxLoss: [0.65, 0.65], CRL: [0.69, 0.6] } as Record<Approach, [number, number]>;
    const saturated: MeasuredGroup = { ...group(values), se: () => 0.001, gate: 'saturated (undefended loss AUC 0.995 ≥ 0.99: no defense effect can show)' };
    const verdicts = TABLE1_CLAIMS.map(([s, t, strict, kind]) => table1Claim(s, t, [saturated], [], strict, kind).verdict);
    expect(verdicts).toEqual(['not testable', 'not testable', 'not testable', 'holds', 'holds']);
  });

  it('a claim against an ineffective comparator is not testable; the other claims are decided', () => {
    const values = { CE: [0.7, 0.8], AdvReg: [0.6, 0.7], RelaxLoss: [0.65, 0.65], CRL: [0.69, 0.6] } as Record<Approach, [number, number]>;
    const inert = "comparator ineffective: AdvReg's highest attack advantage 60.0 % is not below the undefended model's 55.0 %";
    const g: MeasuredGroup = { ...group(values), se: () => 0.001, comparatorGate: { AdvReg: inert } };
    const claims = TABLE1_CLAIMS.map(([s, t, strict, kind, comparator]) => table1Claim(s, t, [g], [], strict, kind, comparator));
    // Claim 3 (CRL ≤ AdvReg) rests on AdvReg; claims 1 (vs CE) and 2 (vs an effective RelaxLoss) are decided.
    expect(claims.map((c) => c.verdict)).toEqual(['holds', 'holds', 'not testable', 'holds', 'holds']);
    expect(claims[2]!.columns![0]!.reason).toBe(inert);
    expect(TABLE1_CLAIMS.map((c) => c[4])).toEqual([undefined, 'RelaxLoss', 'AdvReg', undefined, undefined]);
  });
});
