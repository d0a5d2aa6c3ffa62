// The validity of an audit as `mia attack --scores`, `mia gate` and `mia doctor` check and print it.
import {
  AUDIT_FINDING_CODES,
  baselineNote,
  baselineSentence,
  compareWithBaseline,
  diagnoseAudit,
  findingLine,
  fitBlindBaseline,
  shiftFinding,
  type AuditFinding,
  type AuditFindingCode,
  type BlindBaselineReport,
  type OperatingPointClaim,
  type ScoreTable,
} from '@mia/attacks';
import { InvalidArgumentError } from '@mia/core';
import type { ExperimentResults } from '../run/results';
import { resultOperatingPoints } from '../run/run-audit-description';

/** The validity of an audit: its blind baseline (when it could be fitted), its findings and notes. */
export interface ValidityView {
  readonly baseline?: BlindBaselineReport;
  readonly findings: readonly AuditFinding[];
  readonly notes: readonly string[];
}

const CONFIDENCE = 0.95;

/** Count of each side of a 0/1 membership. */
const sides = (isMember: Uint8Array) => {
  let members = 0;
  for (const m of isMember) members += m;
  return { members, nonMembers: isMember.length - members };
};

/**
 * The validity of a scores file's audit: a blind baseline on the labels alone (a score file has no
 * record content) against the best statistic (by AUC), the distribution-shift finding, and a TPR
 * stated at an FPR below 1/(non-members) (`fprs`: the TPRs the command states without the FPR they
 * were read at).
 */
export function scoresFileValidity(
  table: ScoreTable,
  statistics: ReadonlyArray<{ readonly name: string; readonly scores: Float64Array }>,
  fprs: readonly number[],
  where: string,
): ValidityView {
  const { members, nonMembers } = sides(table.isMember);
  const operatingPoints: OperatingPointClaim[] = fprs.map((fpr) => ({ where, fpr, numNonMembers: nonMembers, showsAchievedFpr: false }));
  const findings = diagnoseAudit({ members: {}, nonMembers: {}, operatingPoints });
  if (table.labels === undefined || members < 2 || nonMembers < 2 || statistics.length === 0)
    return { findings, notes: [`No blind baseline: ${table.labels === undefined ? 'the file has no labels' : 'fewer than 2 members or non-members'}.`] };
  const fit = fitBlindBaseline({ labels: table.labels }, table.isMember, { confidence: CONFIDENCE });
  const best = statistics
    .map((s) => compareWithBaseline({ name: s.name, scores: s.scores }, fit, table.isMember, CONFIDENCE))
    .reduce((b, c) => (c.auc.estimate > b.auc.estimate ? c : b));
  const baseline = { ...fit.report, comparisons: [best] };
  const shift = shiftFinding(baseline);
  const note = baselineNote(baseline);
  return { baseline, findings: [...findings, ...(shift === undefined ? [] : [shift])], notes: note === undefined ? [] : [note] };
}

/**
 * The validity of a `mia run` output: what the run stored (`results.doctor`) and, again from
 * `results.json` alone, the TPRs its results state (a TPR read at a larger FPR than reported, a
 * headline TPR below the FPR resolution) and those a gate ceiling would read (`gateFprs`).
 */
export function runDirValidity(results: ExperimentResults, gateFprs: readonly number[] = []): ValidityView {
  const sizes = results.partition?.sizes ?? {};
  const nonMembers = sizes.target_test ?? sizes.test ?? 0;
  const stored = results.doctor;
  const again = diagnoseAudit({
    members: {},
    nonMembers: {},
    operatingPoints: [
      ...resultOperatingPoints(results.rows, nonMembers),
      ...gateFprs.map((fpr) => ({ where: '--max-tpr-at-fpr', fpr, numNonMembers: nonMembers, showsAchievedFpr: false })),
    ],
  });
  const seen = new Set((stored?.findings ?? []).map((f) => `${f.code}:${f.cause}`));
  const findings = [...(stored?.findings ?? []), ...again.filter((f) => !seen.has(`${f.code}:${f.cause}`))];
  return {
    ...(stored?.baseline === undefined ? {} : { baseline: stored.baseline }),
    findings,
    notes: [
      ...(stored?.notes ?? []),
      ...(stored === undefined
        ? [
            'results.json has no doctor (written before it): only the checks results.json allows were run; `mia doctor <run-dir> --replan` re-plans the run to check the rest.',
          ]
        : []),
    ],
  };
}

/** Validated `--allow` codes. @throws InvalidArgumentError naming an unknown code and the known ones. */
export function allowedCodes(values: readonly string[] | undefined, command: string): Set<AuditFindingCode> {
  const known = Object.keys(AUDIT_FINDING_CODES);
  const codes = (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  for (const code of codes)
    if (!known.includes(code)) throw new InvalidArgumentError(`${command}: --allow must be a finding code (${known.join(', ')}), got ${JSON.stringify(code)}`);
  return new Set(codes as AuditFindingCode[]);
}

/** The human lines of a validity view: the baseline with each comparison, each finding with what to do, each note. */
export function validityLines(view: ValidityView, allowed: ReadonlySet<string> = new Set()): string[] {
  const b = view.baseline;
  const f = (v: number) => v.toFixed(3);
  return [
    ...(b === undefined
      ? []
      : [
          `blind baseline (${b.features}; ${b.method}): AUC ${f(b.auc.estimate)} [${f(b.auc.lower)}, ${f(b.auc.upper)}]`,
          ...b.comparisons.map((c) => baselineSentence(b, c)),
        ]),
    ...(view.findings.length === 0 ? ['no validity finding'] : view.findings.map((x) => `${allowed.has(x.code) ? 'allowed ' : 'finding '}${findingLine(x)}`)),
    ...view.notes.map((n) => `note: ${n}`),
  ];
}
