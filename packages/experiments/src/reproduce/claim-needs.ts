import { isDecided } from './verdicts';
import type { Claim, ColumnDecision, Decision } from './types';

/**
 * What an undecided claim, or one column of it, needs before it can be decided
 * (docs/protocol.md §5.1): a re-run (its result was measured with an earlier plan), more training
 * seeds or evaluation examples (within noise; or an SE over one model only), a dataset this machine
 * cannot download, the paper's scale (out of scope here), models that are not saturated, in the
 * paper's regime, not collapsed, or an effective comparator; else something else, said by its reason.
 */
export type ClaimNeedKind =
  | 'stale results'
  | 'within noise'
  | 'training seeds'
  | 'dataset not available here'
  | 'paper-scale compute'
  | 'saturated'
  | 'not in regime'
  | 'collapsed'
  | 'comparator ineffective'
  | 'other';

/** Every {@link ClaimNeedKind}, in the order a claim's needs are listed. */
export const CLAIM_NEED_KINDS: readonly ClaimNeedKind[] = [
  'stale results',
  'within noise',
  'training seeds',
  'dataset not available here',
  'paper-scale compute',
  'saturated',
  'not in regime',
  'collapsed',
  'comparator ineffective',
  'other',
];

/** How each {@link ClaimNeedKind} is printed. */
export const CLAIM_NEED_LABELS: Readonly<Record<ClaimNeedKind, string>> = {
  'stale results': 'stale results (re-run needed)',
  'within noise': 'within noise (needs more seeds/examples)',
  'training seeds': 'one model only (needs training seeds)',
  'dataset not available here': 'dataset not available here',
  'paper-scale compute': 'paper-scale compute (out of scope here)',
  saturated: 'saturated',
  'not in regime': 'not in regime',
  collapsed: 'collapsed',
  'comparator ineffective': 'comparator ineffective',
  other: 'other',
};

/** The needs this machine cannot provide, whatever is re-run on it. */
export const BEYOND_THIS_MACHINE: readonly ClaimNeedKind[] = ['dataset not available here', 'paper-scale compute'];

/** One thing an undecided claim needs: its kind, the columns that need it (none for a single comparison), and for 'other' the reason. */
export interface ClaimNeed {
  readonly kind: ClaimNeedKind;
  readonly columns: readonly string[];
  /** The first clause of the reason (for 'other': what it is). */
  readonly reason?: string;
}

/**
 * The reason prefixes {@link needOfReason} reads, in the order it tries them, each on the reason
 * after a leading "not testable at this scale: " (the evidence of an undecided claim) is removed.
 * The wordings are those of `run/testability.ts` (saturation, regime, fit, convergence, collapse and
 * comparator gates), of `runReproduction` for a dataset it could not load ("not run: dataset not
 * available (…)", optionally after the column it is about, "CIFAR-100: not run: …"), of the examples
 * for a run out of scope here ("not run: ImageNet … is out of scope …") and for a group run only at
 * the paper's scale ("not run here").
 */
const REASON_PREFIXES: ReadonlyArray<readonly [RegExp, Exclude<ClaimNeedKind, 'stale results' | 'within noise' | 'training seeds' | 'other'>]> = [
  [/^(?:[^:;]+: )?not run: dataset not available\b/, 'dataset not available here'],
  [/^not run: [^;]*\bout of scope\b/, 'paper-scale compute'],
  [/^not run here\b/, 'paper-scale compute'],
  [/^saturated\b/, 'saturated'],
  [/^comparator ineffective\b/, 'comparator ineffective'],
  [/^[^;,]*? (?:collapsed|failed) \(/, 'collapsed'],
  [/^undefended (?:train accuracy|test accuracy|generalization gap)\b/, 'not in regime'],
  [/^[^;]*? did not fit its training set\b/, 'not in regime'],
  [/^[^;]*? far from converged\b/, 'not in regime'],
  [/^[^;]*\b(?:at the edge of|out of) the regime\b/, 'not in regime'],
];

/** A need found in one decision or reason: its kind, the reason's first clause, and the column it names (if any). */
export type NeedFinding = { readonly kind: ClaimNeedKind; readonly reason: string; readonly column?: string };

const TESTABLE_LEAD = 'not testable at this scale: ';
const MAX_REASON = 120;

/**
 * The need a reason for an undecided comparison states, read from its wording: the one place the
 * census reads reason text, matching the documented prefixes of {@link REASON_PREFIXES}; a reason
 * none matches is 'other', with its first clause (up to "; ", at most 120 characters) as `reason`.
 * A dataset-not-available reason that names its column first ("CIFAR-100: not run: …") gives it as `column`.
 */
export function needOfReason(reason: string): NeedFinding {
  const text = reason.startsWith(TESTABLE_LEAD) ? reason.slice(TESTABLE_LEAD.length) : reason;
  const first = text.split('; ')[0]!.trim();
  const clause = first.length > MAX_REASON ? `${first.slice(0, MAX_REASON - 1)}…` : first;
  const match = REASON_PREFIXES.find(([prefix]) => prefix.test(text));
  if (match === undefined) return { kind: 'other', reason: clause };
  const named = match[1] === 'dataset not available here' ? /^([^:;]+): not run:/.exec(text)?.[1] : undefined;
  return { kind: match[1], reason: clause, ...(named === undefined ? {} : { column: named }) };
}

/**
 * What one decision needs, from its data first: nothing when it holds or does not hold, 'within
 * noise' when it is within noise, 'training seeds' when it was shown but not decided (its SE is over
 * one model); otherwise its reason says it ({@link needOfReason}).
 */
export function decisionNeed(decision: Decision): NeedFinding | undefined {
  if (decision.verdict === 'holds' || decision.verdict === 'does not hold') return undefined;
  if (isDecided(decision)) return { kind: 'within noise', reason: decision.evidence };
  if (decision.kind === 'shown-not-decided') return { kind: 'training seeds', reason: decision.reason };
  return needOfReason(decision.reason);
}

/** The needs of a list of (column, need) pairs, one per kind (and per reason for 'other'), in {@link CLAIM_NEED_KINDS} order. */
function grouped(found: readonly NeedFinding[]): ClaimNeed[] {
  const needs = new Map<string, { kind: ClaimNeedKind; columns: string[]; reason?: string }>();
  for (const f of found) {
    const key = f.kind === 'other' ? `other ${f.reason}` : f.kind;
    const need = needs.get(key) ?? { kind: f.kind, columns: [], ...(f.kind === 'other' ? { reason: f.reason } : {}) };
    if (f.column !== undefined && !need.columns.includes(f.column)) need.columns.push(f.column);
    needs.set(key, need);
  }
  return [...needs.values()].sort((a, b) => CLAIM_NEED_KINDS.indexOf(a.kind) - CLAIM_NEED_KINDS.indexOf(b.kind));
}

/** The need of every part of a claim that neither holds nor fails (see {@link claimNeeds}). */
function findings(claim: Pick<Claim, 'verdict' | 'evidence' | 'decision' | 'columns'>): NeedFinding[] {
  const columns = claim.columns ?? [];
  if (claim.verdict === 'partial' && columns.length === 0)
    return [{ kind: 'other', reason: 'no per-column decisions (decided under verdict rules before 3): re-decide it' }];
  if (columns.length > 0)
    return columns.flatMap((c: ColumnDecision) => {
      const need = decisionNeed(c);
      return need === undefined ? [] : [{ ...need, column: c.column }];
    });
  if (claim.decision !== undefined) return [decisionNeed(claim.decision)].filter((n) => n !== undefined);
  if (claim.verdict === 'holds' || claim.verdict === 'does not hold') return [];
  return [claim.verdict === 'within noise' ? { kind: 'within noise', reason: claim.evidence } : needOfReason(claim.evidence)];
}

/**
 * What a claim needs before it can be decided, from its structured decisions: the need of each column
 * that neither holds nor fails ({@link decisionNeed}), of its single decision, or, for a claim with
 * neither (an undecided claim keeping its reason in its evidence), of its verdict and evidence; a
 * partial claim without per-column decisions (verdict rules before 3) needs re-deciding ('other').
 * 'stale results' comes first when its result was measured with an earlier plan (`stale`). Columns
 * that hold or fail need nothing; a claim all of whose columns do gives no need but a stale one.
 */
export function claimNeeds(claim: Pick<Claim, 'verdict' | 'evidence' | 'decision' | 'columns'>, stale = false): ClaimNeed[] {
  return [...(stale ? [{ kind: 'stale results' as const, columns: [] }] : []), ...grouped(findings(claim))];
}

/** One line saying a claim's needs: "saturated: Texas; dataset not available here: CIFAR-100; other: <reason>". */
export function needsLine(needs: readonly ClaimNeed[]): string {
  return needs
    .map((n) => {
      const label = n.kind === 'other' ? `other: ${n.reason ?? ''}` : CLAIM_NEED_LABELS[n.kind];
      return n.columns.length === 0 ? label : `${label}${n.kind === 'other' ? ' on' : ':'} ${n.columns.join(', ')}`;
    })
    .join('; ');
}
