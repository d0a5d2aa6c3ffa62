import type { DefenseRow } from '@mia/experiments';
import { describe, expect, it } from 'vitest';
import { fig2Claims, fig2TextTable, type Fig2Setting } from './fig2-claims';

const ATTACKS = ['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy', 'nn-mlh'];

// A hand-made DefenseRow: only the fields the claims read matter; every SE is `se` (bootstrap SEs in real rows).
function row(testAccuracy: number, loss: number, others = loss, se = 0.01): DefenseRow {
  const attacks = ATTACKS.map((attack) => ({
    attack,
    accuracy: 0,
    advantage: attack === 'loss' ? loss : others,
    auc: 0,
    tprAtFpr: [],
    roc: { fpr: [], tpr: [] },
  }));
  const seOf = { testAccuracy: se, maxAdvantage: se, attacks: Object.fromEntries(ATTACKS.map((a) => [a, { advantage: se, auc: se }])) };
  return { testAccuracy, attacks, maxAdvantage: Math.max(loss, others), se: seOf } as unknown as DefenseRow;
}
const s = (family: string, label: string, r: DefenseRow | { notRun: string }): Fig2Setting => ({ family, label, strength: 0, row: r });

describe('fig2Claims', () => {
  it('hold when a CCL setting is the least attackable right of the undefended accuracy and dominates every baseline point', () => {
    const settings = [
      s('w/o', 'w/o', row(0.6, 0.4)),
      s('CCQL', 'CCQL α=0.5', row(0.62, 0.1)),
      s('CCEL', 'CCEL α=0.5', row(0.7, 0.2, 0.2)),
      s('Dropout', 'Dropout p=0.5', row(0.61, 0.25)),
      s('RelaxLoss', 'RelaxLoss α=1', row(0.55, 0.2)),
      s('AdvReg', 'AdvReg α=1', { notRun: 'not run: x' }),
      s('w/o (CCL5)', 'w/o (CCL5)', row(0.9, 0.0)),
    ];
    const [c1, c2, c3] = fig2Claims(settings, 'purchaseLike');
    expect(c1!.verdict).toBe('holds');
    expect(c1!.evidence).toMatch(
      /^undefended test accuracy 60\.0%; holds: holds on correctness, .*correctness: holds — CCQL α=0\.5 10\.0 vs Dropout p=0\.5 25\.0, Δ = −15\.0 ± 1\.4/,
    );
    expect(c2!.verdict).toBe('holds');
    expect(c2!.evidence).toMatch(/^CCQL α=0\.5 10\.0 vs Dropout p=0\.5 25\.0, Δ = −15\.0 ± 1\.4 \(2 SE = 2\.8\)/);
    expect(c2!.decision).toMatchObject({ labels: ['CCQL α=0.5', 'Dropout p=0.5'], a: 0.1, b: 0.25, direction: 'less' });
    // Each baseline point is dominated beyond 2 SE in both accuracy and highest advantage.
    expect(c3!.verdict).toBe('holds');
    expect(c3!.columns!.map((c) => [c.column, c.verdict])).toEqual([
      ['Dropout p=0.5', 'holds'],
      ['RelaxLoss α=1', 'holds'],
    ]);
    expect(fig2TextTable(settings).rows.map((r) => r.cells[0])).toEqual([
      { paper: 0.184, ours: 0.1 },
      { paper: 0.2967, ours: 0.25 },
    ]);
  });

  it('do not hold when a baseline is less attackable at equal accuracy, and say which point is not dominated', () => {
    const settings = [s('w/o', 'w/o', row(0.6, 0.4)), s('CCQL', 'CCQL α=0.5', row(0.55, 0.1)), s('Label smoothing', 'Label smoothing ε=0.3', row(0.62, 0.2))];
    const [c1, c2, c3] = fig2Claims(settings, 'purchaseLike');
    expect(c1!.verdict).toBe('does not hold');
    // CCQL is 5 points below the undefended accuracy (3.5 SE of the difference): it does not reach it, a failure with its numbers
    // that survives Holm over the 7 attack columns.
    expect(c1!.evidence).toContain(
      'loss: does not hold — no CCL setting reaches the undefended test accuracy; the most accurate, test accuracy CCQL α=0.5 55.0 vs w/o 60.0, Δ = −5.0 ± 1.4',
    );
    expect(c2!.verdict).toBe('does not hold');
    expect(c2!.decision!.delta).toBeCloseTo(-0.05, 12);
    expect(c3!.verdict).toBe('does not hold');
    // CCQL is 7 points less accurate (> 2 SE): Label smoothing is out of its reach.
    expect(c3!.evidence).toMatch(/^does not hold: fails on Label smoothing ε=0\.3 \(Δ −7\.0 ± 1\.4\)/);
    expect(fig2TextTable(settings).rows[0]!.cells[0]!.notRun).toMatch(/no CCQL setting reached the undefended test accuracy \(60\.0%\)/);
  });

  it('are within noise when the differences are below 2 SE, and not testable without SEs', () => {
    const settings = [
      s('w/o', 'w/o', row(0.6, 0.4, 0.4, 0.05)),
      s('CCQL', 'CCQL α=0.5', row(0.62, 0.2, 0.2, 0.05)),
      s('Dropout', 'Dropout p=0.5', row(0.63, 0.22, 0.22, 0.05)),
    ];
    const [c1, c2, c3] = fig2Claims(settings, 'purchaseLike');
    expect(c1!.verdict).toBe('within noise');
    expect(c2!.verdict).toBe('within noise');
    // Dropout is 1 point more accurate than CCQL: not dominated, but within 2 SE of it.
    expect(c3!.verdict).toBe('within noise');
    expect(c3!.evidence).toMatch(/^within noise: within noise on Dropout p=0\.5/);
    const noSe = settings.map((x) => ({ ...x, row: { ...(x.row as DefenseRow), se: undefined } }));
    expect(fig2Claims(noSe, 'purchaseLike')[1]!.verdict).toBe('not testable');
  });

  it('count a setting 0.17 points below the undefended accuracy (SE 1.3) as reaching it: no strict filter', () => {
    const settings = [
      s('w/o', 'w/o', row(0.6, 0.4, 0.4, 0.013)),
      s('CCQL', 'CCQL α=0.5', row(0.5983, 0.1, 0.1, 0.013)),
      s('Dropout', 'Dropout p=0.5', row(0.61, 0.3, 0.3, 0.013)),
    ];
    const [c1, c2] = fig2Claims(settings, 'cifar10');
    expect(c2!.verdict).toBe('holds');
    expect(c1!.verdict).toBe('holds');
    expect(fig2TextTable(settings).rows[0]!.cells[0]!.ours).toBe(0.1);
  });

  it('are not evaluated when the undefended model did not run', () => {
    const claims = fig2Claims([s('w/o', 'w/o', { notRun: 'not run: dataset not available' })], 'cifar10');
    expect(claims.map((c) => c.verdict)).toEqual(['not evaluated', 'not evaluated', 'not evaluated']);
  });
});
