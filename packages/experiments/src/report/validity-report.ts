import { AUDIT_FINDING_CODES, baselineSentence } from '@mia/attacks';
import type { ExperimentResults } from '../run/results';

const f = (v: number) => v.toFixed(3);

/**
 * The "Audit validity" section of a run's report, as plain-text items: the blind baseline (what it
 * reads, its AUC with a 95 % interval), each row's best attack against it, every validity finding
 * with its cause and what to do, and the doctor's notes. Empty for results written before the doctor.
 */
export function validityItems(results: ExperimentResults): string[] {
  const doctor = results.doctor;
  if (doctor === undefined) return [];
  const b = doctor.baseline;
  return [
    ...(b === undefined
      ? []
      : [
          `Blind baseline: ${b.method}, reading ${b.features} of the target's evaluation records (never a model): AUC ${f(b.auc.estimate)} [${f(b.auc.lower)}, ${f(b.auc.upper)}] (${Math.round(100 * b.auc.confidence)} % DeLong interval).`,
          ...b.comparisons.map((c) => baselineSentence(b, c)),
        ]),
    ...(doctor.findings.length === 0
      ? ['No validity finding.']
      : doctor.findings.map((x) => `${x.code} (${AUDIT_FINDING_CODES[x.code].title}): ${x.cause}. What to do: ${x.action}.`)),
    ...doctor.notes,
  ];
}

/** One sentence for the top of "What it means" when the run has validity findings; undefined without. */
export function invalidLead(results: ExperimentResults): string | undefined {
  const findings = results.doctor?.findings ?? [];
  if (findings.length === 0) return undefined;
  return `This audit is not valid: ${findings.length} finding${findings.length === 1 ? '' : 's'} (${[...new Set(findings.map((x) => x.code))].join(', ')}, see "Audit validity"), so the numbers below cannot be trusted until they are fixed.`;
}
