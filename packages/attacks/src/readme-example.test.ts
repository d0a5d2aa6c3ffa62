import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metricAttack, parseScoreJson, runAttackSuite, signalsFromScoreTable, splitSignals } from './index';

describe('README example (exported scores)', () => {
  it('runs as written on small JSON files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mia-attacks-'));
    const file = (name: string, shift: number) => {
      // Members (first 3) have larger true-class logits than non-members.
      const logits = [
        [3 + shift, 0],
        [0, 2.5],
        [2, 0.5],
        [0.2, 0],
        [0, 0.1],
        [0.5, 0.4],
      ];
      writeFileSync(join(dir, name), JSON.stringify({ numClasses: 2, labels: [0, 1, 0, 0, 1, 0], isMember: [1, 1, 1, 0, 0, 0], logits }));
      return join(dir, name);
    };
    const load = (path: string) => {
      const table = parseScoreJson(readFileSync(path, 'utf8'), path);
      return splitSignals(signalsFromScoreTable(table), table.isMember);
    };
    const { attacks, maxAdvantage } = await runAttackSuite({
      target: load(file('target.json', 0)),
      shadow: load(file('shadow.json', 1)),
      attacks: (['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy'] as const).map((s) => metricAttack(s)),
    });
    expect(attacks.map((r) => r.name)).toEqual(['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy']);
    expect(attacks.find((r) => r.name === 'loss')!.auc).toBe(1); // every member has a lower loss
    expect(maxAdvantage).toBeGreaterThan(0);
  });
});
