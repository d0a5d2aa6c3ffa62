import * as tf from '@tensorflow/tfjs-core';
import { DirectoryArtifactStore, initDefaultBackend, type ExperimentResults } from '@mia/experiments';
import { marginProblems, runReproduction } from '@mia/experiments/reproduce';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DP_LR_CANDIDATES,
  EMPIRICAL,
  EPSILONS,
  candidateLabel,
  dpLabel,
  lrSelectionConfig,
  matchedDpRow,
  planeClaims,
  planeConfig,
  reproductions,
  selectDpLr,
} from './index';

const dir = mkdtempSync(join(tmpdir(), 'mia-dp-plane-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await initDefaultBackend({ prefer: ['native', 'wasm'], threads: 1 });
});

describe('dp-plane', () => {
  it('puts every defense on one PAST6 partition with DP-SGD at three ε, q = batch / members', () => {
    for (const scale of ['smoke', 'cpu'] as const) {
      const config = planeConfig(scale);
      expect(config.partition.preset).toBe('PAST6');
      expect(config.defenses.map((d) => d.label)).toEqual(['w/o', ...EPSILONS.map(dpLabel), ...EMPIRICAL.map((e) => e.label)]);
      const dp = config.defenses.filter((d) => d.name === 'dp-sgd');
      expect(dp.map((d) => d.params.targetEpsilon)).toEqual([1, 4, 16]);
      expect(dp.every((d) => d.params.sampleRate === config.training.batchSize / config.partition.maxPerRole!)).toBe(true);
    }
  });

  it("selects DP-SGD's learning rate per ε on the validation slice, from targets alone, and trains the plane with it", () => {
    const selection = lrSelectionConfig('cpu');
    expect(selection.attacks).toEqual([]);
    expect(selection.partition).toEqual(planeConfig('cpu').partition);
    expect(selection.defenses.map((d) => d.label)).toEqual(EPSILONS.flatMap((e) => DP_LR_CANDIDATES.map((lr) => candidateLabel(e, lr))));
    // Constructed validation accuracies: the best per ε wins, whatever its position.
    const best: Record<number, number> = { 1: 0.1, 4: 2, 16: 0.5 };
    const rows = EPSILONS.flatMap((e) => DP_LR_CANDIDATES.map((lr) => ({ label: candidateLabel(e, lr), validationAccuracy: lr === best[e] ? 0.3 : 0.2 })));
    const chosen = selectDpLr({ rows } as unknown as ExperimentResults)!;
    expect(Object.fromEntries([...chosen].map(([e, c]) => [e, c.chosen]))).toEqual(best);
    expect(chosen.get(4)!.validation).toEqual([0.2, 0.2, 0.3]);
    expect(selectDpLr({ notRun: 'not run: no data' })).toBeUndefined();
    const dp = planeConfig('cpu', best).defenses.filter((d) => d.name === 'dp-sgd');
    expect(dp.map((d) => d.params.lr)).toEqual(EPSILONS.map((e) => best[e]));
    expect(planeConfig('cpu').defenses.every((d) => d.params.lr === undefined)).toBe(true);
  });

  it('runs at smoke scale: the plane table, a figure, our claims with margins, ε per DP row; a cached rerun is identical', async () => {
    const store = new DirectoryArtifactStore(join(dir, 'cache'));
    const before = tf.memory().numTensors;
    const result = await runReproduction(reproductions[0]!, { scale: 'smoke', out: join(dir, 'out'), store });
    expect(tf.memory().numTensors).toBe(before);
    expect(result.tables[0]!.rows.map((r) => r.label)).toEqual(['w/o', ...EPSILONS.map(dpLabel), ...EMPIRICAL.map((e) => e.label)]);
    expect(result.figures!.map((f) => f.id)).toEqual(['dp-plane']);
    // The second table: each ε's candidates measured on the validation slice and the rate chosen.
    const lrTable = result.tables[1]!;
    expect(lrTable.rows.map((r) => r.label)).toEqual(EPSILONS.map(dpLabel));
    for (const row of lrTable.rows) {
      const values = row.cells.map((c) => ('ours' in c && c.ours !== undefined ? c.ours : Number.NaN));
      const chosen = values[values.length - 1]!;
      const validation = values.slice(0, -1);
      expect(DP_LR_CANDIDATES).toContain(chosen);
      expect(validation[DP_LR_CANDIDATES.indexOf(chosen)]).toBe(Math.max(...validation));
    }
    expect(result.claims).toHaveLength(2 + EMPIRICAL.length);
    expect(result.claims.every((c) => c.statement.startsWith('ours:'))).toBe(true);
    expect(marginProblems(result.claims)).toEqual([]);
    const results = JSON.parse(readFileSync(join(dir, 'out', 'runs', 'plane', 'results.json'), 'utf8')) as ExperimentResults;
    const planeConfigRun = JSON.parse(readFileSync(join(dir, 'out', 'runs', 'plane', 'config.json'), 'utf8')) as {
      defenses: Array<{ label: string; params: { lr?: number } }>;
    };
    for (const e of EPSILONS) {
      const row = results.rows.find((r) => r.label === dpLabel(e))!;
      const chosenLr = (lrTable.rows.find((r) => r.label === dpLabel(e))!.cells.at(-1) as { ours: number }).ours;
      expect(planeConfigRun.defenses.find((d) => d.label === dpLabel(e))!.params.lr).toBe(chosenLr);
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
