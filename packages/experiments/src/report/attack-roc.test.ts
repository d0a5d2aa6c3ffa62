import { describe, expect, it } from 'vitest';
import { fakeResults, fakeRow } from '../test-utils/reproduction-fixtures';
import type { DefenseRow } from '../run/results';
import { attacksRocFile, attacksRocSpec } from './attack-roc';
import { referencesLines, referencesMarkdown } from './references-report';
import { renderSvg } from './render-svg';

const attack = (name: string, fpr: number[], tpr: number[]) => ({ attack: name, accuracy: 0.5, advantage: 0, auc: 0.5, tprAtFpr: [], roc: { fpr, tpr } });
const row: DefenseRow = {
  ...fakeRow('undefended', { train: 1, test: 0.5 }),
  attacks: [attack('lira-16', [0, 0, 0.01, 1], [0, 0.05, 0.3, 1]), attack('rmia-16', [0, 0.001, 1], [0, 0.02, 1])],
};

describe('attacksRocSpec', () => {
  const spec = attacksRocSpec(row) as unknown as {
    data: { values: Array<{ attack: string; fpr: number; tpr: number }> };
    layer: Array<{ encoding: Record<string, { field: string; scale?: { type: string; domain: number[] } }> }>;
  };

  it('draws every attack of the row on log axes from at least 1e-4 to 1, zero rates at the floor', () => {
    expect(new Set(spec.data.values.map((v) => v.attack))).toEqual(new Set(['lira-16', 'rmia-16']));
    const { x, y } = spec.layer[1]!.encoding;
    expect([x!.scale, y!.scale]).toEqual([
      { type: 'log', domain: [1e-4, 1] },
      { type: 'log', domain: [1e-4, 1] },
    ]);
    expect(spec.data.values[0]).toEqual({ attack: 'lira-16', fpr: 1e-4, tpr: 1e-4 });
    // Finer data extends the axes below 1e-4 (here a rate of 2e-5).
    const fine = attacksRocSpec({ ...row, attacks: [attack('lira', [0, 2e-5, 1], [0, 0.1, 1])] }) as unknown as typeof spec;
    expect(fine.layer[1]!.encoding.x!.scale!.domain).toEqual([1e-5, 1]);
  });

  it('renders to SVG', async () => {
    expect(await renderSvg(attacksRocSpec(row))).toMatch(/^<svg[\s\S]*lira-16[\s\S]*<\/svg>$/);
  });
});

describe('the reference models in the reports', () => {
  const results = {
    ...fakeResults([row]),
    references: { count: 4, scheme: 'paired' as const, auditExamples: 200, populationExamples: 200, seconds: [1, 2, 3, 6], trainedInThisRun: 3 },
  };

  it('say how many, how drawn, on what, and what they cost', () => {
    expect(referencesLines(results)).toEqual([
      "4 reference models trained without the defense on random halves of the audit examples (scheme paired; 3 trained in this run, 1 from the cache), scored on the 200 audit examples (the target's members and non-members) and 200 population examples that no model of the audit trains on (RMIA's z). Training time: 3.0 s per model on average (1.0–6.0 s), 12.0 s in total, on backend cpu.",
    ]);
    expect(referencesMarkdown(results)).toContain(`![ROC of the attacks, undefended (log-log)](${attacksRocFile(0)})`);
    expect(attacksRocFile(0)).toBe('roc-attacks-1.svg');
    expect(referencesLines(fakeResults([row]))).toEqual([]);
    expect(referencesMarkdown(fakeResults([row]))).toEqual([]);
  });
});
