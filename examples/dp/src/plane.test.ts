import * as tf from '@tensorflow/tfjs-core';
import { DirectoryArtifactStore, initDefaultBackend, type ExperimentResults } from '@mia/experiments';
import { dpSgdCandidateLabel, dpSgdSettingName, marginProblems, runReproduction } from '@mia/experiments/reproduce';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DP_GRID,
  EMPIRICAL,
  EPSILONS,
  SEEDS,
  dpLabel,
  dpSettings,
  matchedDpRow,
  members,
  planeClaims,
  planeConfig,
  reproductions,
  selectDp,
  selectionConfig,
} from './index';

const dir = mkdtempSync(join(tmpdir(), 'mia-dp-plane-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await initDefaultBackend({ prefer: ['native', 'wasm'], threads: 1 });
});

describe('dp-plane', () => {
  it('puts every defense on one PAST6 partition with DP-SGD at four ε, q = batch / members', () => {
    for (const scale of ['smoke', 'cpu'] as const) {
      const config = planeConfig(scale);
      expect(config.partition.preset).toBe('PAST6');
      expect(config.defenses.map((d) => d.label)).toEqual(['w/o', ...EPSILONS.map(dpLabel), ...EMPIRICAL.map((e) => e.label)]);
      const dp = config.defenses.filter((d) => d.name === 'dp-sgd');
      expect(dp.map((d) => d.params.targetEpsilon)).toEqual([4, 16, 64, 256]);
      expect(dp.every((d) => d.params.sampleRate === config.training.batchSize / config.partition.maxPerRole!)).toBe(true);
    }
  });

  it("selects DP-SGD's batch, epochs and rate per ε on the validation slice, from targets alone, and trains the plane with them", () => {
    const selection = selectionConfig('cpu');
    expect(selection.attacks).toEqual([]);
    expect(selection.partition).toEqual(planeConfig('cpu').partition);
    // The grid: expected batches 128 … 4,096 of the 10,000 members, each at the same data passes.
    expect(members('cpu')).toBe(10_000);
    const settings = dpSettings('cpu');
    expect([...new Set(settings.map((s) => s.batch))]).toEqual([128, 256, 512, 1024, 2048, 4096]);
    expect(settings).toHaveLength(DP_GRID.cpu.batches.length * DP_GRID.cpu.epochs.length * DP_GRID.cpu.lrs.length);
    for (const b of DP_GRID.cpu.batches)
      expect(settings.filter((s) => s.batch === b).map((s) => s.epochs)).toEqual(settings.filter((s) => s.batch === 128).map((s) => s.epochs));
    expect(selection.defenses.map((d) => d.label)).toEqual(EPSILONS.flatMap((e) => settings.map((s) => dpSgdCandidateLabel(dpLabel(e), s))));
    for (const d of selection.defenses) {
      const s = settings.find((x) => d.label!.endsWith(dpSgdSettingName(x)))!;
      // σ is the accountant's for each candidate's own steps: no noiseMultiplier is fixed.
      expect(d.params).toMatchObject({ sampleRate: s.batch / members('cpu'), epochs: s.epochs, lr: s.lr, clipNorm: 1, delta: 1e-5 });
      expect(d.params.noiseMultiplier).toBeUndefined();
    }
    // Constructed validation accuracies: the best per ε wins, whatever its position; test accuracy plays no part.
    const best: Record<string, number> = { [dpLabel(4)]: 0, [dpLabel(16)]: settings.length - 1, [dpLabel(64)]: 2, [dpLabel(256)]: 1 };
    const rows = EPSILONS.flatMap((e) =>
      settings.map((s, i) => ({
        label: dpSgdCandidateLabel(dpLabel(e), s),
        validationAccuracy: i === best[dpLabel(e)] ? 0.3 : 0.2,
        testAccuracy: i === 3 ? 0.9 : 0.1,
      })),
    );
    const chosen = selectDp({ rows } as unknown as ExperimentResults, 'cpu')!;
    for (const e of EPSILONS) expect(chosen.get(dpLabel(e))!.setting).toEqual(settings[best[dpLabel(e)]!]);
    expect(selectDp({ notRun: 'not run: no data' }, 'cpu')).toBeUndefined();
    const plane = planeConfig('cpu', new Map([...chosen].map(([l, c]) => [l, c.setting])));
    for (const e of EPSILONS) {
      const s = settings[best[dpLabel(e)]!]!;
      expect(plane.defenses.find((d) => d.label === dpLabel(e))!.params).toMatchObject({
        sampleRate: s.batch / members('cpu'),
        epochs: s.epochs,
        lr: s.lr,
        targetEpsilon: e,
      });
      // The row declares the selection it came out of, accounted: its ε composes the 36 candidates and
      // its own training, so the audit doctor holds it to more than its training's ε.
      const search = plane.defenses.find((d) => d.label === dpLabel(e))!.search!;
      expect(search).toMatchObject({ candidates: settings.length, onPrivateData: true, accounted: true });
      expect(search.epsilon).toBeGreaterThan(e);
    }
    expect(planeConfig('cpu').defenses.every((d) => d.search === undefined)).toBe(true);
    // The other rows keep the run's training; without a selection, neither do the DP rows change it.
    expect(plane.defenses.filter((d) => d.name !== 'dp-sgd')).toEqual(planeConfig('cpu').defenses.filter((d) => d.name !== 'dp-sgd'));
    expect(planeConfig('cpu').defenses.every((d) => d.params.lr === undefined && d.params.epochs === undefined)).toBe(true);
  });

  it('runs at smoke scale: the plane table, a figure, our claims with margins, ε per DP row; a cached rerun is identical', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'cache'));
    const before = tf.memory().numTensors;
    const result = await runReproduction(reproductions[0]!, { scale: 'smoke', out: join(dir, 'out'), store });
    expect(tf.memory().numTensors).toBe(before);
    expect(result.tables[0]!.rows.map((r) => r.label)).toEqual(['w/o', ...EPSILONS.map(dpLabel), ...EMPIRICAL.map((e) => e.label)]);
    expect(result.figures!.map((f) => f.id)).toEqual(['dp-plane']);
    // The second table: each candidate's validation accuracy per ε, and the setting chosen: the best.
    const selTable = result.tables[1]!;
    const settings = dpSettings('smoke');
    expect(selTable.columns).toEqual(EPSILONS.map(dpLabel));
    expect(selTable.rows.map((r) => r.label)).toEqual([
      ...settings.map(dpSgdSettingName),
      'chosen: expected batch q·N',
      'chosen: epochs',
      'chosen: learning rate',
    ]);
    const chosenOf = (column: number) => {
      const [batch, epochs, lr] = selTable.rows.slice(-3).map((r) => r.cells[column]!.ours!);
      return settings.findIndex((s) => s.batch === batch && s.epochs === epochs && s.lr === lr);
    };
    for (let c = 0; c < EPSILONS.length; c++) {
      const validation = selTable.rows.slice(0, settings.length).map((r) => r.cells[c]!.ours!);
      expect(validation[chosenOf(c)]).toBe(Math.max(...validation));
    }
    expect(result.claims).toHaveLength(2 + EMPIRICAL.length);
    expect(result.claims.every((c) => c.statement.startsWith('ours:'))).toBe(true);
    expect(marginProblems(result.claims)).toEqual([]);
    // The plane trains SEEDS.smoke training seeds per model; the margins combine them.
    expect(SEEDS.smoke).toBe(2);
    expect(existsSync(join(dir, 'out', 'runs', 'plane-seed-1', 'results.json'))).toBe(true);
    expect(result.notes.some((n) => n.includes('combined over 2 training seeds'))).toBe(true);
    const results = JSON.parse(readFileSync(join(dir, 'out', 'runs', 'plane', 'results.json'), 'utf8')) as ExperimentResults;
    const planeConfigRun = JSON.parse(readFileSync(join(dir, 'out', 'runs', 'plane', 'config.json'), 'utf8')) as {
      defenses: Array<{ label: string; params: { lr?: number; epochs?: number; sampleRate?: number } }>;
    };
    for (const [c, e] of EPSILONS.entries()) {
      const row = results.rows.find((r) => r.label === dpLabel(e))!;
      const s = settings[chosenOf(c)]!;
      expect(planeConfigRun.defenses.find((d) => d.label === dpLabel(e))!.params).toMatchObject({
        lr: s.lr,
        epochs: s.epochs,
        sampleRate: s.batch / members('smoke'),
      });
      // σ from the accountant for the chosen setting's steps: ceil(N / B) per epoch.
      expect(row.privacy!.steps).toBe(s.epochs * Math.ceil(members('smoke') / s.batch));
      expect(row.privacy!.epsilon).toBeLessThanOrEqual(e);
      expect(row.privacy!.epsilon).toBeGreaterThan(0.9 * e);
      expect(row.empiricalEpsilon!.exceedsAccountant).toBe(false);
    }
    // The matched DP row is the one closest in validation accuracy.
    const past = results.rows.find((r) => r.label === 'PAST')!;
    const match = matchedDpRow(results, past)!;
    const gaps = EPSILONS.map((e) => Math.abs(results.rows.find((r) => r.label === dpLabel(e))!.validationAccuracy! - past.validationAccuracy!));
    expect(Math.abs(match.validationAccuracy! - past.validationAccuracy!)).toBe(Math.min(...gaps));
    const again = await runReproduction(reproductions[0]!, { scale: 'smoke', out: join(dir, 'again'), store });
    expect(again.tables).toEqual(result.tables);
    expect(again.claims).toEqual(result.claims);
  }, 600_000);

  it('claims are "not evaluated" with the reason when the run did not happen', () => {
    const claims = planeClaims({ notRun: 'not run: no data' });
    expect(claims.map((c) => c.verdict)).toEqual(Array(2 + EMPIRICAL.length).fill('not evaluated'));
    expect(claims[0]!.evidence).toBe('not run: no data');
  });
});
