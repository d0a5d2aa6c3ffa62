import { epsilonOf, noiseMultiplierFor, searchEpsilonOf } from '@mia/defense-dp';
import { describe, expect, it } from 'vitest';
import type { DefenseConfig } from '../schema/run-schema';
import type { ExperimentResults } from '../run/results';
import {
  chosenDpSgdSettings,
  dpSgdCandidateLabel,
  dpSgdSelectionDefenses,
  dpSgdSearch,
  dpSgdSelectionTable,
  dpSgdSettings,
  selectDpSgdSettings,
  withDpSgdSettings,
} from './dp-sgd-selection';

const dp = (epsilon: number): DefenseConfig => ({
  name: 'dp-sgd',
  label: `DP-SGD ε=${epsilon}`,
  params: { clipNorm: 1, targetEpsilon: epsilon, delta: 1e-5, sampleRate: 0.064 },
});
const grid = { batches: [128, 512], epochs: [10, 30], lrs: [0.1, 0.5] };

describe('DP-SGD settings chosen on the validation slice (docs/protocol.md §5.3)', () => {
  it('the grid: every batch × epochs × rate, batch-major; a candidate per DP-SGD row with q = batch / members and σ left to the accountant', () => {
    const settings = dpSgdSettings(grid, 2000);
    expect(settings).toHaveLength(8);
    expect(settings.slice(0, 3)).toEqual([
      { batch: 128, epochs: 10, lr: 0.1 },
      { batch: 128, epochs: 10, lr: 0.5 },
      { batch: 128, epochs: 30, lr: 0.1 },
    ]);
    const defenses = dpSgdSelectionDefenses([dp(1), dp(16)], settings, 2000);
    expect(defenses).toHaveLength(16);
    expect(defenses[5]).toEqual({
      name: 'dp-sgd',
      label: 'DP-SGD ε=1 B=512 E=10 lr=0.5',
      params: { clipNorm: 1, targetEpsilon: 1, delta: 1e-5, sampleRate: 512 / 2000, epochs: 10, lr: 0.5 },
    });
    expect(defenses.every((d) => d.params.noiseMultiplier === undefined)).toBe(true);
    // The same grid gives the same candidates: the selection run's config is a function of the plan.
    expect(dpSgdSelectionDefenses([dp(1), dp(16)], dpSgdSettings(grid, 2000), 2000)).toEqual(defenses);
  });

  it('refuses a grid or a defense it cannot select for, naming the entry', () => {
    expect(() => dpSgdSettings({ ...grid, batches: [128, 4000] }, 2000)).toThrow(/grid\.batches\[1\] must be an integer in \[1, members = 2000\], got 4000/);
    expect(() => dpSgdSettings({ ...grid, epochs: [] }, 2000)).toThrow(/grid\.epochs must hold at least one value, got \[\]/);
    expect(() => dpSgdSettings({ ...grid, lrs: [0.1, 0.1] }, 2000)).toThrow(/grid\.lrs must not repeat a value/);
    expect(() => dpSgdSettings({ ...grid, lrs: [Number.NaN] }, 2000)).toThrow(/grid\.lrs\[0\] must be a positive finite number, got NaN/);
    expect(() => dpSgdSettings(grid, 0)).toThrow(/members must be a positive integer, got 0/);
    expect(() => dpSgdSelectionDefenses([{ name: 'none', label: 'w/o', params: {} }], [], 10)).toThrow(/defenses\[0\]\.name must be "dp-sgd", got "none"/);
    const fixed = { ...dp(1), params: { clipNorm: 1, noiseMultiplier: 1, delta: 1e-5, sampleRate: 0.1 } };
    expect(() => dpSgdSelectionDefenses([fixed], [], 10)).toThrow(/params\.targetEpsilon must be given/);
  });

  it('chooses per row the best validation accuracy alone (the first on ties), whatever the test accuracy', () => {
    const settings = dpSgdSettings(grid, 2000);
    const best: Record<string, number> = { 'DP-SGD ε=1': 6, 'DP-SGD ε=16': 3 };
    // Test accuracy is highest on another candidate: it must not count.
    const rows = Object.entries(best).flatMap(([label, b]) =>
      settings.map((s, i) => ({
        label: dpSgdCandidateLabel(label, s),
        validationAccuracy: i === b ? 0.3 : i === 0 || i === 1 ? 0.1 : 0.2,
        testAccuracy: i === 7 ? 0.9 : 0.1,
      })),
    );
    const run = { rows } as unknown as ExperimentResults;
    const choices = selectDpSgdSettings(run, Object.keys(best), settings)!;
    expect(choices.get('DP-SGD ε=1')!.setting).toEqual(settings[6]);
    expect(choices.get('DP-SGD ε=16')!.setting).toEqual(settings[3]);
    expect(choices.get('DP-SGD ε=16')!.reason).toMatch(/^B=128 E=30 lr=0.5: the highest validation accuracy \(30\.0 %\)/);
    expect(choices.get('DP-SGD ε=1')!.validation).toHaveLength(8);
    // In a 2 × 2 × 2 grid every value is at an edge of its dimension: the choice names them.
    expect(choices.get('DP-SGD ε=16')!.edges).toEqual(['smallest batch', 'largest epochs', 'largest rate']);
    expect(choices.get('DP-SGD ε=16')!.reason).toMatch(
      /; at the grid's edge in smallest batch, largest epochs, largest rate \(a value beyond it was not tried\)$/,
    );
    // A dimension with one value, or a value inside its range, is no edge.
    const wide = dpSgdSettings({ batches: [128, 256, 512], epochs: [30], lrs: [0.1, 0.5, 1] }, 2000);
    const inside = wide.findIndex((x) => x.batch === 256 && x.lr === 0.5);
    const one = {
      rows: wide.map((x, i) => ({ label: dpSgdCandidateLabel('DP-SGD ε=1', x), validationAccuracy: i === inside ? 0.3 : 0.2 })),
    } as unknown as ExperimentResults;
    const c = selectDpSgdSettings(one, ['DP-SGD ε=1'], wide)!.get('DP-SGD ε=1')!;
    expect(c.edges).toEqual([]);
    expect(c.reason).toBe('B=256 E=30 lr=0.5: the highest validation accuracy (30.0 %)');
    // Ties: the first in grid order.
    const flat = { rows: rows.map((r) => ({ ...r, validationAccuracy: 0.2 })) } as unknown as ExperimentResults;
    expect(selectDpSgdSettings(flat, ['DP-SGD ε=1'], settings)!.get('DP-SGD ε=1')!.setting).toEqual(settings[0]);
    expect(selectDpSgdSettings({ notRun: 'not run: no data' }, ['DP-SGD ε=1'], settings)).toBeUndefined();
    // The plan's DP-SGD rows take the chosen q, epochs and rate; the other rows are untouched.
    const plan = withDpSgdSettings([{ name: 'none', label: 'w/o', params: {} }, dp(1), dp(16)], chosenDpSgdSettings(choices), 2000);
    expect(plan[0]).toEqual({ name: 'none', label: 'w/o', params: {} });
    expect(plan[1]!.params).toEqual({ ...dp(1).params, sampleRate: 512 / 2000, epochs: 30, lr: 0.1 });
    expect(plan[2]!.params).toMatchObject({ sampleRate: 128 / 2000, epochs: 30, lr: 0.5, targetEpsilon: 16 });
    expect(withDpSgdSettings([dp(1)], undefined, 2000)).toEqual([dp(1)]);
    // The table: a row per setting, the choice per column.
    const table = dpSgdSelectionTable(run, Object.keys(best), settings, choices);
    expect(table.rows.map((r) => r.label).slice(-3)).toEqual(['chosen: expected batch q·N', 'chosen: epochs', 'chosen: learning rate']);
    expect(table.rows[6]!.cells[0]).toEqual({ ours: 0.3 });
    expect(table.rows.slice(-3).map((r) => r.cells[1]!.ours)).toEqual([128, 30, 0.5]);
  });

  it('refuses a run without the candidates or without a validation slice', () => {
    const settings = dpSgdSettings({ batches: [128], epochs: [10], lrs: [0.1] }, 2000);
    const label = dpSgdCandidateLabel('DP-SGD ε=1', settings[0]!);
    expect(() => selectDpSgdSettings({ rows: [] } as unknown as ExperimentResults, ['DP-SGD ε=1'], settings)).toThrow(
      /must have a row labelled "DP-SGD ε=1 B=128 E=10 lr=0.1", got none/,
    );
    expect(() => selectDpSgdSettings({ rows: [{ label, testAccuracy: 0.5 }] } as unknown as ExperimentResults, ['DP-SGD ε=1'], settings)).toThrow(
      /must have a validationAccuracy \(partition.validation\), got undefined/,
    );
  });

  it('a chosen row declares its search, accounted: every candidate and its own training composed at its δ', () => {
    const settings = dpSgdSettings({ batches: [200, 500], epochs: [5], lrs: [0.1] }, 2000);
    const chosen = settings[1]!;
    const search = dpSgdSearch(dp(4), settings, chosen, 2000);
    // By hand: each training at q = B / N, T = E · ceil(N / B), σ for ε = 4 at its steps.
    const training = (s: (typeof settings)[number]) => {
      const sampleRate = s.batch / 2000;
      const steps = s.epochs * Math.ceil(2000 / s.batch);
      return { sampleRate, steps, noiseMultiplier: noiseMultiplierFor({ targetEpsilon: 4, sampleRate, steps, delta: 1e-5 }) };
    };
    const trainings = [...settings, chosen].map(training);
    expect(search).toEqual({ candidates: 2, onPrivateData: true, accounted: true, epsilon: searchEpsilonOf({ trainings, delta: 1e-5 }).epsilon });
    // Each training alone meets ε = 4; three composed cost more, and less than three times it.
    for (const t of trainings) expect(epsilonOf({ ...t, delta: 1e-5 }).epsilon).toBeLessThanOrEqual(4 + 1e-9);
    expect(search.epsilon).toBeGreaterThan(4);
    expect(search.epsilon).toBeLessThan(12);
    // withDpSgdSettings with the candidates: the chosen rows carry it, the others do not.
    const plan = withDpSgdSettings([{ name: 'none', label: 'w/o', params: {} }, dp(4)], new Map([['DP-SGD ε=4', chosen]]), 2000, settings);
    expect(plan[0]).toEqual({ name: 'none', label: 'w/o', params: {} });
    expect(plan[1]!.search).toEqual(search);
    expect(withDpSgdSettings([dp(4)], new Map([['DP-SGD ε=4', chosen]]), 2000)[0]!.search).toBeUndefined();
    expect(() => dpSgdSearch(dp(4), [], chosen, 2000)).toThrow('dpSgdSearch: candidates must hold at least one setting, got []');
    expect(() => dpSgdSearch({ name: 'none', label: 'w/o', params: {} }, settings, chosen, 2000)).toThrow(
      'dpSgdSearch: defense.name must be "dp-sgd", got "none"',
    );
  });
});
