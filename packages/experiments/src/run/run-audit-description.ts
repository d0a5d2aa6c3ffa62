import type { AuditDescription, OperatingPointClaim, PrivacyClaim, RecordSet, ReferenceAttackUse, SelectionDescription } from '@mia/attacks';
import { attackConfigOf, type ExperimentConfig } from '../schema/run-schema';
import type { RunPlan } from '../plan/plan-run';
import { referenceExamples } from '../plan/reference-membership';
import type { RunReferences } from '../references/reference-signals';
import type { DefenseRow } from './results';
import { recordHashes } from './audit-records';
import { referenceHparams } from '../references/reference-export';

/** The reference attacks of a config and how they use the references (their params with the attacks' defaults). */
export function referenceAttackUses(config: Pick<ExperimentConfig, 'attacks'>): ReferenceAttackUse[] {
  return config.attacks.flatMap((entry): ReferenceAttackUse[] => {
    const { name, label, params } = attackConfigOf(entry);
    if (name !== 'lira' && name !== 'rmia') return [];
    const mode = params.mode === 'offline' || params.mode === 'online' ? params.mode : name === 'lira' ? 'online' : 'offline';
    const models = typeof params.models === 'number' ? params.models : undefined;
    return [
      {
        name: label,
        method: name,
        mode,
        ...(name === 'lira' ? { fixVariance: params.fixVariance !== false } : {}),
        ...(models === undefined ? {} : { models }),
      },
    ];
  });
}

/**
 * The TPRs a run's results state: every attack's TPR@FPR in the report's attack tables (shown with
 * the FPR it was read at), and the report's headline sentence on the 0.1 % FPR (not shown with it),
 * which a run prints when it has an undefended row (`none`) and another one to compare it with.
 */
export function resultOperatingPoints(rows: readonly DefenseRow[], numNonMembers: number): OperatingPointClaim[] {
  const table = rows.flatMap((row) =>
    row.attacks.flatMap((a) =>
      a.tprAtFpr.map((t) => ({ where: `${row.label}/${a.attack}`, fpr: t.fpr, achievedFpr: t.achievedFpr, numNonMembers, showsAchievedFpr: true })),
    ),
  );
  const headline =
    rows.some((r) => r.defense === 'none') && rows.length > 1 && rows.every((r) => r.attacks.some((a) => a.tprAtFpr.some((t) => t.fpr === 0.001)));
  return [
    ...table,
    ...(headline ? [{ where: 'the report\'s "What it means" (the best attack at a 0.1 % FPR)', fpr: 0.001, numNonMembers, showsAchievedFpr: false }] : []),
  ];
}

/**
 * A run as the validity checks see it (`diagnoseAudit` of `@mia/attacks`), from its plan: the
 * target's evaluation records, each shadow model's training set, the reference models (keep masks,
 * training sets, population) and the attacks using them, the validation slice the best-validation
 * checkpoint is chosen on and the inference data defenses train with, the TPRs its results
 * state, and each DP row's ε with the search its defense declares (`search`). Records are named by dataset index and content hash. Every defense's target evaluates the
 * same records and its shadows train on the same ones, so the first defense stands for all.
 */
export function runAuditDescription(plan: RunPlan, rows: readonly DefenseRow[], references: RunReferences | undefined): AuditDescription {
  const { config, data } = plan;
  const first = plan.defenses[0]!;
  const { target } = first;
  const roles = data.partition.roles;
  const population = plan.references.length > 0 || references !== undefined ? referenceExamples(roles).population : [];
  const validation = config.training.checkpoint === 'best-validation' ? (target.validationIdx ?? []) : [];
  const inference = target.inferenceIdx ?? [];
  const hashes = recordHashes(data, [
    ...target.memberIdx,
    ...target.nonMemberIdx,
    ...first.shadows.flatMap((s) => s.memberIdx),
    ...plan.references.flatMap((r) => r.memberIdx),
    ...population,
    ...validation,
    ...inference,
  ]);
  const set = (ids: readonly number[]): RecordSet => ({ ids, hashes: ids.map((i) => hashes.get(i)!) });
  const selections: SelectionDescription[] = [
    ...(validation.length > 0
      ? [{ what: "the best-validation checkpoint (training.checkpoint) on the partition's validation slice", records: set(validation) }]
      : []),
    ...(inference.length > 0 ? [{ what: "the inference data the defenses train with (e.g. AdvReg's reference set)", records: set(inference) }] : []),
  ];
  const uses = referenceAttackUses(config);
  const keep = references?.keep ?? plan.referenceKeep;
  return {
    members: set(target.memberIdx),
    nonMembers: set(target.nonMemberIdx),
    shadows: first.shadows.map((s) => ({ name: s.role, members: set(s.memberIdx) })),
    ...(keep.length === 0
      ? {}
      : {
          references: {
            keep,
            ...(population.length > 0 ? { population: set(population) } : {}),
            ...(plan.references.length > 0 ? { trainedOn: plan.references.map((r) => set(r.memberIdx)) } : {}),
            attacks: uses,
          },
        }),
    operatingPoints: resultOperatingPoints(rows, target.nonMemberIdx.length),
    selections,
    ...importedTraining(config, references),
    ...privacyOf(plan, rows),
  };
}

/**
 * How imported reference models were trained (their `hparams.json`) against how the target is
 * (`referenceHparams` of the config): the `training-mismatch` check. Models without one are not compared.
 */
function importedTraining(config: ExperimentConfig, references: RunReferences | undefined): Pick<AuditDescription, 'training'> {
  const others = (references?.settings ?? []).flatMap((settings, k) => (settings === undefined ? [] : [{ name: `imported reference model ${k}`, settings }]));
  if (others.length === 0) return {};
  const { format: _format, ...target } = referenceHparams(config);
  return { training: { target, others } };
}

/**
 * The DP claims of a run's rows (the accountant's ε of each row with one) with the search each
 * defense declares (`search`); a search with its own ε is the claim (the row is held to it).
 */
function privacyOf(plan: RunPlan, rows: readonly DefenseRow[]): { privacy?: PrivacyClaim[] } {
  const privacy = plan.defenses.flatMap((d): PrivacyClaim[] => {
    const row = rows.find((r) => r.label === d.label);
    if (row?.privacy === undefined) return [];
    const { search } = d.defense;
    if (search === undefined) return [{ name: d.label, epsilon: row.privacy.epsilon }];
    const { epsilon, ...rest } = search;
    return [{ name: d.label, epsilon: epsilon ?? row.privacy.epsilon, search: { ...rest, accounted: rest.accounted || epsilon !== undefined } }];
  });
  return privacy.length === 0 ? {} : { privacy };
}
