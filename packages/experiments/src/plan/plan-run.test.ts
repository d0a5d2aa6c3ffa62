import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import type { PreparedData } from '../data/prepare-data';
import { attackNeedsShadow } from '../attacks/registry';
import { planRun, REFERENCE_DEFENSE } from './plan-run';
import { unitKey } from './unit-key';
import { roleIndices } from './unit-roles';

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const roles = {
  target_train: range(0, 20),
  target_test: range(20, 20),
  shadow_train: range(40, 20),
  shadow_test: range(60, 20),
  validation: range(80, 5),
  target_inference: range(85, 5),
};
const data = { dataset: { name: 'purchaseLike', source: 'stand-in', size: 90 }, partition: { roles }, digest: 'd' } as unknown as PreparedData;
const config = parseExperimentConfig({
  name: 'plan',
  seed: 4,
  dataset: { name: 'purchaseLike', size: 2000 },
  partition: { preset: 'CCL4', maxPerRole: 20 },
  model: { name: 'mlp', options: { hidden: [8] } },
  training: { epochs: 1, batchSize: 4, lr: 0.1 },
  shadowModels: 2,
  defenses: [{ name: 'none' }, { name: 'ccl', params: { alpha: 0.5 }, label: 'ccl-half' }],
  attacks: ['loss', 'lira'],
  references: { count: 2 },
});

describe('planRun', () => {
  const plan = planRun(config, data, attackNeedsShadow);

  it('lists every unit once: each defense target and its shadows, then the references, with their labels', () => {
    expect(plan.units.map((u) => `${u.defenseIndex}:${u.role}`)).toEqual([
      '0:target',
      '0:shadow',
      '0:shadow-2',
      '1:target',
      '1:shadow',
      '1:shadow-2',
      '-1:reference-0',
      '-1:reference-1',
    ]);
    expect(plan.defenses.map((d) => [d.label, d.target.label, d.shadows.map((s) => s.label)])).toEqual([
      ['none', 'none/target', ['none/shadow', 'none/shadow-2']],
      ['ccl-half', 'ccl-half/target', ['ccl-half/shadow', 'ccl-half/shadow-2']],
    ]);
    expect(plan.references.every((u) => u.defense === REFERENCE_DEFENSE)).toBe(true);
    expect(plan.shadowRoles).toEqual(['shadow', 'shadow-2']);
  });

  it("gives each unit the key every cache entry was written under, its examples, and the target's validation slice", () => {
    for (const unit of plan.units) expect(unit.key).toBe(unitKey(config, data, unit.defense, unit.role));
    expect(new Set(plan.units.map((u) => u.key)).size).toBe(plan.units.length);
    const target = plan.defenses[1]!.target;
    expect({ memberIdx: target.memberIdx, nonMemberIdx: target.nonMemberIdx }).toEqual(roleIndices(config.seed, roles, 'target'));
    expect(target.validationIdx).toEqual(roles.validation);
    expect(target.inferenceIdx).toEqual(roles.target_inference);
    expect(plan.defenses[1]!.shadows[1]!.validationIdx).toBeUndefined();
    // A reference model trains on its keep row of the audit pool (target members and non-members).
    const keep = plan.referenceKeep[0]!;
    expect(plan.references[0]!.memberIdx).toEqual([...roles.target_train, ...roles.target_test].filter((_, i) => keep[i] === 1));
  });

  it('keys the same unit under another defense (a two-phase defense’s base) as the run would key that defense', () => {
    const ccl = plan.defenses[1]!;
    expect(ccl.target.keyWith({ name: 'none', params: {} })).toBe(plan.defenses[0]!.target.key);
    expect(ccl.shadows[0]!.keyWith({ name: 'none', params: {} })).toBe(plan.defenses[0]!.shadows[0]!.key);
  });

  it('finds a unit by its spec, and names a spec the run does not have', () => {
    expect(plan.unit({ defenseIndex: 1, role: 'shadow-2' })).toBe(plan.defenses[1]!.shadows[1]);
    expect(() => plan.unit({ defenseIndex: 0, role: 'shadow-3' })).toThrow('RunPlan.unit: plan has no unit 0:shadow-3 (defense index:role)');
  });

  it('plans no shadows when no attack of the run calibrates on them', () => {
    const lira = planRun({ ...config, attacks: ['lira'] }, data, attackNeedsShadow);
    expect(lira.defenses.every((d) => d.shadows.length === 0)).toBe(true);
    expect(lira.units).toHaveLength(4);
  });
});

describe('the plan is the one place that computes unit keys and roles', () => {
  const src = join(dirname(fileURLToPath(import.meta.url)), '..');
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory()
        ? d.name === 'test-utils'
          ? []
          : sources(join(dir, d.name))
        : d.name.endsWith('.ts') && !d.name.endsWith('.test.ts')
          ? [join(dir, d.name)]
          : [],
    );
  /** Calls that derive a unit's key, seed or examples (a definition is not a call). */
  const DERIVES = /(?<!function )\b(unitKey|unitKeyBasis|keyWithDefense|unitSeedOf|roleIndices|referenceIndices)\(|'trained-model-1'/;

  it('no file outside plan/ derives a key, a seed or a role’s examples', () => {
    const offenders = sources(src)
      .filter((file) => !relative(src, file).startsWith('plan/'))
      .filter((file) => DERIVES.test(readFileSync(file, 'utf8')))
      .map((file) => relative(src, file));
    expect(offenders).toEqual([]);
  });

  it('inside plan/, only the plan and the key module itself do', () => {
    const callers = sources(join(src, 'plan'))
      .filter((file) => /(?<!function )\b(unitKeyBasis|keyWithDefense)\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(src, file))
      .sort();
    expect(callers).toEqual(['plan/plan-run.ts', 'plan/unit-key.ts']);
  });

  it('the check catches a call outside plan/ (it can fail)', () => {
    expect(DERIVES.test("const key = unitKey(config, data, defense, 'target');")).toBe(true);
    expect(DERIVES.test('export function unitKey(config: ExperimentConfig) {')).toBe(false);
  });
});
