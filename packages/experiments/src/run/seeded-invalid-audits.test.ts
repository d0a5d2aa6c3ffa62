import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { diagnoseAudit, type AuditFinding, type AuditFindingCode } from '@mia/attacks';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import { prepareData, type PreparedData } from '../data/prepare-data';
import { planRun, type RunPlan } from '../plan/plan-run';
import { attackNeedsShadow } from '../attacks/registry';
import type { RunReferences } from '../references/reference-signals';
import { diagnoseRun } from './audit-doctor';
import { runAuditDescription } from './run-audit-description';
import type { DefenseRow } from './results';

// Eight (and more) invalid audits seeded into one small, valid run (Purchase-like stand-in, 600
// members and 600 non-members, shadows, 4 reference models): each must be caught with its cause,
// and the run itself must raise nothing.
const config = parseExperimentConfig({
  name: 'seeded',
  scale: 'smoke',
  seed: 3,
  dataset: { name: 'purchaseLike', size: 6000 },
  partition: { preset: 'CCL4', maxPerRole: 600, validation: 100 },
  model: { name: 'mlp', options: { hidden: [16] } },
  training: { epochs: 1, batchSize: 32, lr: 0.1, checkpoint: 'best-validation' },
  defenses: [{ name: 'none' }],
  attacks: ['loss', 'nn-mlh', { name: 'lira', params: { mode: 'offline' } }],
  references: { count: 4 },
});

let data: PreparedData;
let plan: RunPlan;
beforeAll(async () => {
  await tf.setBackend('cpu');
  data = await prepareData(config);
  plan = planRun(config, data, attackNeedsShadow);
});

/** The plan with the first defense's target or shadow replaced. */
function withDefense(base: RunPlan, change: (d: RunPlan['defenses'][number]) => RunPlan['defenses'][number]): RunPlan {
  return { ...base, defenses: [change(base.defenses[0]!), ...base.defenses.slice(1)] };
}

/** The plan's data with some records' content replaced by another record's (`copies`: index → index copied) or shifted. */
function withRecords(base: RunPlan, copies: ReadonlyMap<number, number>, shift?: { readonly indices: ReadonlySet<number>; readonly by: number }): RunPlan {
  const dataset = base.data.dataset;
  const gather = (indices: ArrayLike<number>) =>
    tf.tidy(() => {
      const rows = Array.from(indices, (i) => copies.get(i) ?? i);
      const x = dataset.gather(Int32Array.from(rows));
      if (shift === undefined) return x;
      const mask = tf.tensor(
        Array.from(indices, (i) => (shift.indices.has(i) ? shift.by : 0)),
        [rows.length, 1],
      );
      return tf.add(x, mask);
    });
  return { ...base, data: { ...base.data, dataset: { ...dataset, gather } } };
}

const codes = (plan: RunPlan, rows: DefenseRow[] = [], refs?: RunReferences): readonly AuditFinding[] => diagnoseRun(plan, rows, [], refs).findings;

/** A result row with one attack's stored TPR@FPR entries. */
const row = (defense: string, label: string, tprAtFpr: DefenseRow['attacks'][number]['tprAtFpr']): DefenseRow =>
  ({ defense, label, attacks: [{ attack: 'loss', accuracy: 0.5, advantage: 0, auc: 0.5, tprAtFpr, roc: { fpr: [], tpr: [] } }] }) as unknown as DefenseRow;

describe('seeded invalid audits', () => {
  it('the valid run raises no finding, and its blind baseline is at chance', () => {
    const doctor = diagnoseRun(plan, [], [], undefined);
    expect(doctor.findings).toEqual([]);
    expect(doctor.baseline!.auc.lower).toBeLessThan(0.5);
    expect(doctor.baseline!.features).toBe("the records' 600 values hashed into 128 signed buckets, and its label (one-hot)");
  });

  const cases: Array<[string, () => { codes: readonly AuditFinding[]; cause: RegExp }]> = [
    [
      '1. a shadow trained on target members (by index)',
      () => {
        const bad = withDefense(plan, (d) => ({
          ...d,
          shadows: [{ ...d.shadows[0]!, memberIdx: [...d.target.memberIdx.slice(0, 40), ...d.shadows[0]!.memberIdx.slice(40)] }],
        }));
        return { codes: codes(bad), cause: /^shadow model shadow trained on 40 of the target's evaluation records: 40 members \(40 by index\)/ };
      },
    ],
    [
      '1b. a shadow record that is a copy of an evaluation non-member (by content)',
      () => {
        const d = plan.defenses[0]!;
        const bad = withRecords(plan, new Map([[d.shadows[0]!.memberIdx[0]!, d.target.nonMemberIdx[0]!]]));
        return { codes: codes(bad), cause: /1 non-members \(1 by content\)/ };
      },
    ],
    [
      '2. a reference model that trained on a record its keep row counts OUT',
      () => {
        const refs = plan.references;
        const out = plan.defenses[0]!.target.memberIdx.find((i) => !refs[0]!.memberIdx.includes(i))!;
        const bad = { ...plan, references: [{ ...refs[0]!, memberIdx: [...refs[0]!.memberIdx, out] }, ...refs.slice(1)] };
        return { codes: codes(bad), cause: /^reference model 0 trained on 1 records \(1 by index, 0 by content\) that its keep row counts OUT/ };
      },
    ],
    [
      '3. LiRA with a per-record σ from 2 OUT models',
      () => {
        const bad = {
          ...plan,
          config: { ...config, attacks: [...config.attacks, { name: 'lira', label: 'lira-own-sigma', params: { mode: 'offline', fixVariance: false } }] },
        };
        return { codes: codes(bad), cause: /^lira-own-sigma fits a σ per record \(fixVariance false\) from 2 OUT reference models at least, fewer than 32/ };
      },
    ],
    [
      '4. online LiRA on imported references that hold half the records IN in none of them',
      () => {
        const n = plan.defenses[0]!.target.memberIdx.length * 2;
        const keep = Array.from({ length: 4 }, (_, k) => Uint8Array.from({ length: n + 1200 }, (_, i) => (i < n / 2 ? 0 : (i + k) % 2)));
        const refs = { keep, models: [], auditSize: n, populationSize: 1200, population: [], seconds: [], cache: [] } as unknown as RunReferences;
        // Imported references: the run trains none of its own.
        const bad = { ...plan, references: [], config: { ...config, attacks: [{ name: 'lira', params: { mode: 'online' } }] } };
        return {
          codes: codes(bad, [], refs),
          cause: /^lira is online, but 600 of 1200 records are IN in fewer than 25 % or more than 75 % of its 4 reference models/,
        };
      },
    ],
    [
      '5. a TPR at 0.1 % FPR in the headline with 600 non-members',
      () => ({
        codes: codes(plan, [row('none', 'none', [{ fpr: 0.001, tpr: 0.01, achievedFpr: 0 }]), row('ccl', 'CCL', [{ fpr: 0.001, tpr: 0.01, achievedFpr: 0 }])]),
        cause: /^a TPR at 0\.1 % FPR is stated \(the report's "What it means"/,
      }),
    ],
    [
      '6. a TPR reported at 1 % FPR but read at 1.5 %',
      () => ({
        codes: codes(plan, [row('none', 'none', [{ fpr: 0.01, tpr: 0.2, achievedFpr: 0.015 }])]),
        cause: /^none\/loss: the TPR reported at 1 % FPR was read at 1\.5 % FPR/,
      }),
    ],
    [
      '7. the best-validation checkpoint chosen on evaluation non-members',
      () => {
        const bad = withDefense(plan, (d) => ({ ...d, target: { ...d.target, validationIdx: d.target.nonMemberIdx.slice(0, 25) } }));
        return {
          codes: codes(bad),
          cause:
            /^the best-validation checkpoint \(training\.checkpoint\) on the partition's validation slice was chosen on 25 of the evaluation records \(0 members, 25 non-members\)/,
        };
      },
    ],
    [
      '8. references trained with another architecture than the target declares',
      () => {
        const audit = runAuditDescription(plan, [], undefined);
        const findings = diagnoseAudit({
          ...audit,
          training: {
            target: { architecture: config.model },
            others: [{ name: 'reference-0', settings: { architecture: { name: 'resnet18', options: {} } } }],
          },
        });
        return { codes: findings, cause: /^reference-0 was trained with another architecture than the target declares/ };
      },
    ],
    [
      '9. a DP ε reported after choosing among 25 DP trainings on the validation slice',
      () => {
        // The run's own description: a DP row whose defense declares the search it came out of (`search`).
        const dp = {
          ...plan.defenses[0]!,
          label: 'DP-SGD ε=4',
          defense: { name: 'dp-sgd', label: 'DP-SGD ε=4', params: {}, search: { candidates: 25, onPrivateData: true, accounted: false } },
        };
        const searched = { ...plan, defenses: [plan.defenses[0]!, dp] };
        const dpRow = { ...row('dp-sgd', 'DP-SGD ε=4', []), privacy: { mechanism: 'dp-sgd', epsilon: 4, delta: 1e-5 } } as DefenseRow;
        return {
          codes: codes(searched, [row('none', 'none', []), dpRow]),
          cause: /^DP-SGD ε=4 reports ε = 4, the ε of one training, but its hyperparameters are the best of 25 DP trainings chosen on private data/,
        };
      },
    ],
    [
      '10. a member set shifted in distribution (+0.3 on every feature of the members)',
      () => {
        const bad = withRecords(plan, new Map(), { indices: new Set(plan.defenses[0]!.target.memberIdx), by: 0.3 });
        return { codes: codes(bad), cause: /^a blind baseline that never queries the model tells members from non-members with AUC/ };
      },
    ],
    [
      '11. evaluation non-members that are copies of members',
      () => {
        const d = plan.defenses[0]!.target;
        const bad = withRecords(plan, new Map(d.nonMemberIdx.slice(0, 7).map((i, k) => [i, d.memberIdx[k]!])));
        return { codes: codes(bad), cause: /^7 of the 600 evaluation non-members are also members \(7 by content\)/ };
      },
    ],
  ];
  const expected: Record<string, AuditFindingCode[]> = {
    '1.': ['shadow-overlap'],
    '1b': ['shadow-overlap'],
    '2.': ['reference-overlap'],
    '3.': ['references-too-few'],
    '4.': ['references-unbalanced'],
    '5.': ['tpr-below-resolution'],
    '6.': ['fpr-mismatch'],
    '7.': ['selected-on-evaluation'],
    '8.': ['training-mismatch'],
    '9.': ['dp-search-unaccounted'],
    '10': ['distribution-shift'],
    // A non-member with a member's content is also IN, by content, for the reference models that keep the member.
    '11': ['evaluation-duplicates', 'reference-overlap'],
  };
  it('a DP row whose search is accounted for, or chosen on public data, or without a declared search raises nothing', () => {
    const dpRow = { ...row('dp-sgd', 'DP', []), privacy: { mechanism: 'dp-sgd', epsilon: 4, delta: 1e-5 } } as DefenseRow;
    for (const search of [{ candidates: 25, onPrivateData: true, accounted: true }, { candidates: 25, onPrivateData: false, accounted: false }, undefined]) {
      const dp = { ...plan.defenses[0]!, label: 'DP', defense: { name: 'dp-sgd', label: 'DP', params: {}, ...(search === undefined ? {} : { search }) } };
      expect(codes({ ...plan, defenses: [plan.defenses[0]!, dp] }, [row('none', 'none', []), dpRow]).map((f) => f.code)).toEqual([]);
    }
  });

  it("a search with its own ε is accounted: the row's DP claim is the search's ε, not its training's", () => {
    const dpRow = { ...row('dp-sgd', 'DP', []), privacy: { mechanism: 'dp-sgd', epsilon: 4, delta: 1e-5 } } as DefenseRow;
    const search = { candidates: 25, onPrivateData: true, accounted: false, epsilon: 26.8 };
    const dp = { ...plan.defenses[0]!, label: 'DP', defense: { name: 'dp-sgd', label: 'DP', params: {}, search } };
    const searched = { ...plan, defenses: [plan.defenses[0]!, dp] };
    expect(codes(searched, [row('none', 'none', []), dpRow])).toEqual([]);
    expect(runAuditDescription(searched, [row('none', 'none', []), dpRow], undefined).privacy).toEqual([
      { name: 'DP', epsilon: 26.8, search: { candidates: 25, onPrivateData: true, accounted: true } },
    ]);
  });

  it.each(cases)('%s is caught with its cause', (name, build) => {
    const { codes: findings, cause } = build();
    expect([...new Set(findings.map((f) => f.code))]).toEqual(expected[name.slice(0, 2)]);
    expect(findings[0]!.cause).toMatch(cause);
    expect(findings[0]!.action.length).toBeGreaterThan(20);
  });
});
