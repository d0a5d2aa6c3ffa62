import type { DefenseRow, ExperimentResults } from '@mia/experiments';
import { testabilityProblem, type Regime, type Reproduction } from '@mia/experiments/reproduce';
import { reproductions as ccl } from '@mia/example-ccl';
import { reproductions as crl } from '@mia/example-crl';
import { reproductions as dp } from '@mia/example-dp';
import { reproductions as past } from '@mia/example-past';
import { reproductions as sam } from '@mia/example-sam';
import { describe, expect, it } from 'vitest';

// Every gate can pass (docs/protocol.md §5.1): each reproduction states the regimes its claims are gated
// on, with the paper's own values; a model at those values, with the SEs a cpu run measures (about one
// accuracy point), must be in the regime, and a model clearly out of it must not be.
const all: readonly Reproduction[] = [...ccl, ...crl, ...dp, ...past, ...sam];
// Reproductions without a regime gate, and why.
const UNGATED: Readonly<Record<string, string>> = {
  'dp-plane': 'places DP-SGD among the defenses; its matched-utility claims gate on the compared rows, not on a paper regime',
  'ccl-fig1': 'trains its own three models in-process and compares the members’ loss statistics of those models; there is no undefended regime to gate',
};
const RUN_SE = 0.01;

function row(label: string, train: number, test: number, attackAccuracy: number): DefenseRow {
  const advantage = 2 * attackAccuracy - 1;
  return {
    defense: 'none',
    label,
    params: {},
    trainAccuracy: train,
    testAccuracy: test,
    lossGap: 1,
    lossVariance: 0,
    attacks: [{ attack: 'loss', accuracy: attackAccuracy, advantage, auc: 0.5 + advantage / 2, tprAtFpr: [], roc: { fpr: [], tpr: [] } }],
    maxAdvantage: advantage,
    p1: 0,
    lossHistogram: { edges: [], members: [], nonMembers: [] },
    cache: { target: 'hit', shadow: 'none' },
    trainSeconds: 0,
    se: {
      method: 'seeds+bootstrap',
      resamples: 200,
      trainAccuracy: RUN_SE,
      testAccuracy: RUN_SE,
      lossGap: RUN_SE,
      maxAdvantage: RUN_SE,
      p1: RUN_SE,
      attacks: { loss: { advantage: RUN_SE, auc: RUN_SE } },
    },
  };
}

function results(undefended: DefenseRow, classes: number): ExperimentResults {
  return {
    format: 'mia-results-1',
    config: {} as ExperimentResults['config'],
    dataset: { name: 'synthetic', source: 'stand-in', description: 'a model at the paper’s regime values', size: 4000, classes },
    partition: { preset: 'CCL4', sizes: { target_train: 1000, target_test: 1000 }, digest: 'x' },
    backend: 'cpu',
    versions: {},
    startedAt: '2026-01-01T00:00:00.000Z',
    seconds: 0,
    rows: [undefended],
    notes: [],
  };
}

const gate = (r: ExperimentResults, regime: Regime) =>
  testabilityProblem({ results: r, undefended: 'w/o', compared: ['w/o'], fitted: ['w/o'], regime, kind: 'privacy' });

describe('every reproduction’s regime gate can pass at the paper’s own values', () => {
  it('covers every reproduction', () => {
    const missing = all.filter((r) => UNGATED[r.name] === undefined && (r.regimes === undefined || r.regimes.length === 0)).map((r) => r.name);
    expect(missing).toEqual([]);
  });

  for (const reproduction of all) {
    for (const { column, regime, classes } of reproduction.regimes ?? []) {
      it(`${reproduction.name}, ${column}: the paper's values pass, a model out of regime does not`, () => {
        expect(regime.paper, `${reproduction.name} ${column}: the regime states the paper's values`).toBeDefined();
        const paper = regime.paper!;
        // Where the paper does not report a value, the regime's own threshold stands in (met at the threshold).
        const train = paper.trainAccuracy ?? Math.max(regime.minTrainAccuracy, 0.99);
        const test = paper.testAccuracy ?? Math.min(train - 0.05, (regime.minTestOverChance * 1.5) / classes);
        const attack = paper.bestAttackAccuracy ?? 0.7;
        expect(gate(results(row('w/o', train, test, attack), classes), regime), `${paper.source}`).toBeUndefined();
        const chance = 1 / classes;
        expect(gate(results(row('w/o', Math.min(0.5, regime.minTrainAccuracy - 0.2), chance, 0.55), classes), regime)).toBeDefined();
      });
    }
  }
});
