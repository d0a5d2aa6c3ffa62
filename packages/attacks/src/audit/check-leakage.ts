import { InvalidArgumentError, describeValue } from '@mia/core';
import { bestOperatingPoint, bootstrapRocStatistic, clopperPearson, summarizeAttack } from '@mia/metrics';
import { AUDIT_FINDING_CODES, type AuditFinding, type AuditFindingCode } from '../doctor/audit-finding';
import { diagnoseAudit } from '../doctor/diagnose-audit';

/** Ceilings a model's leakage must stay under; each is compared with the UPPER confidence bound of its metric. */
export interface LeakCeilings {
  /** Ceiling on the best-threshold advantage `TPR − FPR` (a fraction), over every attack. */
  readonly advantage?: number;
  /** `[fpr, maxTpr]`: ceiling on the TPR at that FPR (fractions), over every attack; or a list of such pairs. */
  readonly tprAtFpr?: readonly [number, number] | readonly (readonly [number, number])[];
  /** Two-sided confidence level of the bounds. @default the report's (0.95 by default) */
  readonly confidence?: number;
  /**
   * Validity finding codes to acknowledge (as `mia gate --allow`): an audit whose `validity` holds a
   * finding not listed here cannot be decided, whatever its leakage (docs/guides/audit-doctor.md).
   */
  readonly allow?: readonly AuditFindingCode[];
}

/** The attacks of an audit report, or its JSON form: what {@link checkLeakage} reads. */
export interface LeakageEvidence {
  /** Confidence level of the stored intervals. */
  readonly confidence: number;
  /** Per attack: its name, its scores, and its advantage interval at `confidence` when stored. */
  readonly attacks: ReadonlyArray<{
    readonly name: string;
    readonly memberScores: ArrayLike<number>;
    readonly nonMemberScores: ArrayLike<number>;
    readonly advantage?: { readonly estimate: number; readonly upper: number };
  }>;
  /** The audit's validity checks (`report.validity` of `auditModel` / `auditScores`); its findings make the verdict undecided. */
  readonly validity?: { readonly findings: readonly AuditFinding[] };
}

/** One compared metric: the worst attack's upper bound against its ceiling. */
export interface LeakCheck {
  /** `advantage` or `TPR@<fpr>`. */
  readonly metric: string;
  /** The attack with the highest upper bound. */
  readonly attack: string;
  /** Its point estimate. */
  readonly estimate: number;
  /** Its upper confidence bound. */
  readonly upper: number;
  /** The ceiling it is compared with. */
  readonly ceiling: number;
  /** `upper ≤ ceiling`. */
  readonly pass: boolean;
}

/** Result of {@link checkLeakage}: whether every ceiling holds, and a one-line reason. */
export interface LeakVerdict {
  /** Whether the audit is valid and every ceiling holds. */
  readonly pass: boolean;
  /** False when the audit has a validity finding that `ceilings.allow` does not acknowledge: its numbers cannot decide. */
  readonly decided: boolean;
  /** The unacknowledged validity findings (empty when decided). */
  readonly findings: readonly AuditFinding[];
  /** One line naming the metric, the attack, the upper bound, the confidence and the ceiling. */
  readonly message: string;
  /** One entry per ceiling. */
  readonly checks: readonly LeakCheck[];
  /** The confidence level used. */
  readonly confidence: number;
}

const pct = (v: number) => `${+(100 * v).toFixed(2)} %`;

function checkFraction(fn: string, name: string, value: unknown, open = false): number {
  if (typeof value !== 'number' || !(open ? value > 0 && value < 1 : value >= 0 && value <= 1)) {
    throw new InvalidArgumentError(`${fn}: ${name} must be a number in ${open ? '(0, 1)' : '[0, 1]'}, got ${describeValue(value)}`);
  }
  return value;
}

/** Validated ceilings: `[fpr, maxTpr]` pairs and the confidence (internal). */
export function checkCeilings(
  fn: string,
  ceilings: LeakCeilings,
  reportConfidence: number,
): { advantage?: number; pairs: Array<[number, number]>; confidence: number } {
  if (typeof ceilings !== 'object' || ceilings === null)
    throw new InvalidArgumentError(`${fn}: ceilings must be {advantage?, tprAtFpr?, confidence?}, got ${describeValue(ceilings)}`);
  const advantage = ceilings.advantage === undefined ? undefined : checkFraction(fn, 'advantage', ceilings.advantage);
  const raw = ceilings.tprAtFpr;
  const list =
    raw === undefined || (Array.isArray(raw) && raw.length === 0)
      ? []
      : Array.isArray(raw[0])
        ? (raw as readonly (readonly [number, number])[])
        : [raw as readonly [number, number]];
  const pairs = list.map((pair, i): [number, number] => {
    if (!Array.isArray(pair) || pair.length !== 2)
      throw new InvalidArgumentError(`${fn}: tprAtFpr${list.length > 1 ? `[${i}]` : ''} must be [fpr, maxTpr], got ${describeValue(pair)}`);
    return [checkFraction(fn, 'tprAtFpr fpr', pair[0]), checkFraction(fn, 'tprAtFpr maxTpr', pair[1])];
  });
  if (advantage === undefined && pairs.length === 0) throw new InvalidArgumentError(`${fn}: give at least one ceiling (advantage or tprAtFpr), got none`);
  const confidence = checkFraction(fn, 'confidence', ceilings.confidence ?? reportConfidence, true);
  for (const code of ceilings.allow ?? [])
    if (!Object.hasOwn(AUDIT_FINDING_CODES, code))
      throw new InvalidArgumentError(`${fn}: allow must list finding codes (${Object.keys(AUDIT_FINDING_CODES).join(', ')}), got ${describeValue(code)}`);
  return { advantage, pairs, confidence };
}

/**
 * Checks an audit against leakage ceilings: for each ceiling, the worst attack's UPPER confidence
 * bound (best-threshold advantage: stratified bootstrap; TPR at an FPR: Clopper–Pearson at the ROC
 * vertex) must not exceed it. What `mia gate` and the `toLeakAtMost` matcher decide with. An audit
 * whose `validity` holds a finding (docs/guides/audit-doctor.md) that `ceilings.allow` does not
 * acknowledge is not decided: `pass` is false and the message names the finding, whatever the leakage.
 *
 * @param report - An {@link AuditReport} or its JSON form (anything with `confidence` and per-attack scores).
 * @param ceilings - {@link LeakCeilings}; at least one.
 * @returns The {@link LeakVerdict} with a one-line message.
 * @throws InvalidArgumentError on a ceiling outside [0, 1], no ceiling, a confidence outside (0, 1) or a report without attacks.
 * @see docs/protocol.md §5; Carlini et al. 2022 (TPR at low FPR).
 */
export function checkLeakage(report: LeakageEvidence, ceilings: LeakCeilings): LeakVerdict {
  const fn = 'checkLeakage';
  if (typeof report !== 'object' || report === null || !Array.isArray(report.attacks) || report.attacks.length === 0) {
    throw new InvalidArgumentError(`${fn}: report must be an audit report with at least one attack (auditModel, auditScores), got ${describeValue(report)}`);
  }
  const { advantage, pairs, confidence } = checkCeilings(fn, ceilings, report.confidence);
  const checks: LeakCheck[] = [];
  const worst = (metric: string, ceiling: number, bound: (a: LeakageEvidence['attacks'][number]) => { estimate: number; upper: number }) => {
    const bounds = report.attacks.map((a) => ({ attack: a.name, ...bound(a) }));
    const top = bounds.reduce((b, x) => (x.upper > b.upper ? x : b));
    checks.push({ metric, attack: top.attack, estimate: top.estimate, upper: top.upper, ceiling, pass: top.upper <= ceiling });
  };
  const joined = (a: LeakageEvidence['attacks'][number]) => {
    const scores = Float64Array.from([...Array.from(a.memberScores), ...Array.from(a.nonMemberScores)]);
    return { scores, isMember: Uint8Array.from(scores, (_, i) => (i < a.memberScores.length ? 1 : 0)) };
  };
  if (advantage !== undefined) {
    worst('advantage', advantage, (a) => {
      if (a.advantage !== undefined && confidence === report.confidence) return a.advantage;
      const { scores, isMember } = joined(a);
      return bootstrapRocStatistic(scores, isMember, (roc) => bestOperatingPoint(roc).advantage, { confidence });
    });
  }
  for (const [fpr, maxTpr] of pairs) {
    worst(`TPR@${pct(fpr)} FPR`, maxTpr, (a) => {
      const { scores, isMember } = joined(a);
      const t = summarizeAttack(scores, isMember, { fprs: [fpr] }).tprAtFpr[0]!;
      return { estimate: t.tpr, upper: clopperPearson(t.truePositives, t.numMembers, { confidence }).upper };
    });
  }
  const failed = checks.filter((c) => !c.pass);
  const c = `${+(100 * confidence).toFixed(2)} % confidence`;
  const describeCheck = (k: LeakCheck, op: string) =>
    `${k.metric} upper bound ${pct(k.upper)} ${op} ceiling ${pct(k.ceiling)} (${k.attack}, estimate ${pct(k.estimate)})`;
  const leakage =
    failed.length > 0
      ? `leaks more than allowed at ${c}: ${failed.map((k) => describeCheck(k, '>')).join('; ')}`
      : `leaks at most the ceilings at ${c}: ${checks.map((k) => describeCheck(k, '≤')).join('; ')}`;
  const allowed = new Set(ceilings.allow ?? []);
  const findings = gateFindings(report, pairs).filter((f) => !allowed.has(f.code));
  const decided = findings.length === 0;
  const message = decided
    ? leakage
    : `cannot be decided: the audit is not valid (${findings.map((f) => f.code).join(', ')}; fix it, or acknowledge a finding with allow): ${findings.map((f) => `${f.cause} — ${f.action}`).join(' | ')}; the invalid audit's numbers: ${leakage}`;
  return { pass: decided && failed.length === 0, decided, findings, message, checks, confidence };
}

/** Findings about one operating point (they bear on a gate only when it reads that FPR). */
const OPERATING_POINT_CODES: ReadonlySet<AuditFindingCode> = new Set(['tpr-below-resolution', 'fpr-mismatch']);

/**
 * The validity findings that bear on a leakage gate: the report's own (those about an operating point
 * only when a ceiling reads its FPR) and the resolution check of each TPR ceiling against the
 * non-members it is read from.
 */
function gateFindings(report: LeakageEvidence, pairs: ReadonlyArray<readonly [number, number]>): AuditFinding[] {
  const gated = pairs.map(([fpr]) => fpr);
  const readsFpr = (f: AuditFinding) => f.numbers.fpr !== undefined && gated.some((fpr) => Math.abs(fpr - f.numbers.fpr!) < 1e-12);
  const own = (report.validity?.findings ?? []).filter((f) => !OPERATING_POINT_CODES.has(f.code) || readsFpr(f));
  const numNonMembers = Math.min(...report.attacks.map((a) => a.nonMemberScores.length));
  const ceilingsCheck = diagnoseAudit({
    members: {},
    nonMembers: {},
    operatingPoints: gated.map((fpr) => ({ where: 'the tprAtFpr ceiling', fpr, numNonMembers, showsAchievedFpr: false })),
  });
  const seen = new Set(own.map((f) => `${f.code}:${f.numbers.fpr}`));
  return [...own, ...ceilingsCheck.filter((f) => !seen.has(`${f.code}:${f.numbers.fpr}`))];
}
