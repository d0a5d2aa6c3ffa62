import { describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import type { PreparedData } from '../data/prepare-data';
import { unitJobs } from '../queue/unit-job';
import { planRun, REFERENCE_DEFENSE, REFERENCE_UNIT_INDEX } from '../plan/plan-run';
import { unitKey } from '../plan/unit-key';
import { attackNeedsShadow } from '../attacks/registry';

const roles = {
  target_train: Array.from({ length: 20 }, (_, i) => i),
  target_test: Array.from({ length: 20 }, (_, i) => 20 + i),
  shadow_train: Array.from({ length: 20 }, (_, i) => 40 + i),
  shadow_test: Array.from({ length: 20 }, (_, i) => 60 + i),
};
const data = { dataset: { name: 'purchaseLike', source: 'stand-in', size: 80 }, partition: { roles }, digest: 'd' } as unknown as PreparedData;
const configOf = (references: Record<string, unknown>, seed = 1) =>
  parseExperimentConfig({
    name: 'keys',
    seed,
    dataset: { name: 'purchaseLike', size: 2000 },
    partition: { preset: 'CCL4', maxPerRole: 20 },
    model: { name: 'mlp', options: { hidden: [8] } },
    training: { epochs: 1, batchSize: 4, lr: 0.1 },
    defenses: [{ name: 'ccl', params: { alpha: 0.5 } }],
    attacks: ['loss', 'lira'],
    references,
  });
const keys = (references: Record<string, unknown>, seed?: number) => {
  const config = configOf(references, seed);
  return planRun(config, data, attackNeedsShadow).references.map((u) => u.key);
};

describe('reference units', () => {
  it('are units of the run besides the targets and shadows, trained without the defense', () => {
    const config = configOf({ count: 4 });
    const plan = planRun(config, data, attackNeedsShadow);
    expect(plan.units.map((u) => `${u.defenseIndex}:${u.role}`)).toEqual([
      '0:target',
      '0:shadow',
      '-1:reference-0',
      '-1:reference-1',
      '-1:reference-2',
      '-1:reference-3',
    ]);
    // LiRA alone calibrates on no shadow model: the target and the references.
    expect(planRun({ ...config, attacks: ['lira'] }, data, attackNeedsShadow).units.map((u) => `${u.defenseIndex}:${u.role}`)).toEqual([
      '0:target',
      '-1:reference-0',
      '-1:reference-1',
      '-1:reference-2',
      '-1:reference-3',
    ]);
    expect(plan.unit({ defenseIndex: REFERENCE_UNIT_INDEX, role: 'reference-2' }).defense).toBe(REFERENCE_DEFENSE);
    expect(() => plan.unit({ defenseIndex: 3, role: 'target' })).toThrow('RunPlan.unit: keys has no unit 3:target (defense index:role)');
    // The plan's keys are the keys every cache entry was written under (unitKey, field by field).
    for (const unit of plan.units) expect(unit.key).toBe(unitKey(config, data, unit.defense, unit.role));
  });

  it('have content-addressed keys: the count (carlini), the scheme and the seed change them; paired models are shared across counts', () => {
    const carlini4 = keys({ count: 4, scheme: 'carlini' });
    expect(new Set(carlini4).size).toBe(4);
    expect(keys({ count: 4 })).toEqual(carlini4); // the default scheme is carlini
    expect(keys({ count: 4, scheme: 'carlini' })).toEqual(carlini4); // deterministic
    expect(keys({ count: 6, scheme: 'carlini' }).filter((k) => carlini4.includes(k))).toEqual([]);
    expect(keys({ count: 4, scheme: 'carlini' }, 2).filter((k) => carlini4.includes(k))).toEqual([]);
    const paired4 = keys({ count: 4, scheme: 'paired' });
    expect(paired4.filter((k) => carlini4.includes(k))).toEqual([]);
    expect(keys({ count: 8, scheme: 'paired' }).slice(0, 4)).toEqual(paired4);
    // The defense of the run is not part of a reference model's key (they train without it).
    const config = configOf({ count: 4 });
    const other = { ...config, defenses: [{ name: 'none', params: {} }] };
    expect(unitKey(other, data, REFERENCE_DEFENSE, 'reference-0')).toBe(carlini4[0]);
  });

  it('become queue jobs like the other units (mia sweep --queue, mia worker)', () => {
    const config = configOf({ count: 2, scheme: 'paired' });
    const plan = planRun(config, data, attackNeedsShadow);
    const [job] = unitJobs(plan, [plan.unit({ defenseIndex: REFERENCE_UNIT_INDEX, role: 'reference-1' })]);
    expect(job!.key).toBe(unitKey(config, data, REFERENCE_DEFENSE, 'reference-1'));
    expect(job!.label).toBe('references/reference-1');
    expect(job!.unit).toEqual({ defenseIndex: -1, role: 'reference-1' });
  });
});
