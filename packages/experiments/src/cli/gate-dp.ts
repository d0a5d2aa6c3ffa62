// `mia gate --dp`: refuses a DP claim that a one-run canary audit refutes (a run directory whose DP
// rows asked for `audit: { canaries }`, or a canary scores file of the user's own training).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import { auditCanaryScores, type DpAuditDecision } from '@mia/defense-dp';
import type { GateOutcome } from './gate-outcome';
import { cannotRead } from './read-score-file';
import { readResults } from './gate-run-dir';
import { runDirValidity, type ValidityView } from './audit-validity-lines';
import { selectGateRows } from './select-gate-rows';

/** The format of a canary scores file (`mia gate --dp <file>`). */
export const CANARY_SCORES_FORMAT = 'mia-canary-scores-1';

/**
 * `mia gate --dp <run-dir>`: every gated DP row with a canary audit (`privacy.audit` of
 * `results.json`, from the `dp-sgd` defense's `audit` param) must not be refuted: exit 1 with the
 * numbers when one is ("this DP claim is broken").
 * @throws InvalidArgumentError when no gated row has a canary audit (the gate cannot decide).
 */
export async function gateDpRunDir(dir: string, requestedRows: readonly string[] = []): Promise<GateOutcome> {
  const results = await readResults(dir);
  const { rows, note } = selectGateRows(results, join(dir, 'results.json'), requestedRows);
  const audited = rows.filter((r) => r.privacy?.audit !== undefined);
  if (audited.length === 0)
    throw new InvalidArgumentError(
      `gate: --dp needs a canary audit, and no gated row of ${dir}/results.json has one (${note}); add \`audit: { canaries: 1000 }\` to the dp-sgd row's params and run it again`,
    );
  const line = (label: string, a: NonNullable<NonNullable<(typeof rows)[number]['privacy']>['audit']>, claimed: number | null) =>
    `${label}: canary ε ≥ ${a.empiricalEpsilon === null ? '∞' : a.empiricalEpsilon.toFixed(2)} (${a.decidedBy === 'gdp' ? 'Gaussian DP' : 'one run'}, ${a.guesses.correct}/${a.guesses.made} guesses right, m = ${a.canaries}) vs accountant ε ${claimed === null ? '∞' : claimed.toFixed(2)}${a.canRefute ? '' : ' (these canaries cannot refute it: raise audit.canaries)'}`;
  const broken = audited.filter((r) => r.privacy!.audit!.broken);
  const confidence = `${+(100 * audited[0]!.privacy!.audit!.confidence).toFixed(2)} % confidence`;
  const described = (list: typeof audited) => list.map((r) => line(r.label, r.privacy!.audit!, r.privacy!.epsilon)).join('; ');
  const validity = dpClaimValidity(runDirValidity(results));
  return broken.length > 0
    ? { exitCode: 1, line: `FAIL ${dir}: the DP claim is broken at ${confidence}: ${described(broken)}`, validity }
    : { exitCode: 0, line: `PASS ${dir}: no canary audit refutes the accountant's ε at ${confidence}: ${described(audited)}`, validity };
}

/** The finding codes that bear on a DP claim (the canary audit is its own test; the attacks' findings do not touch it). */
const DP_CLAIM_CODES: ReadonlySet<string> = new Set(['dp-search-unaccounted']);

/**
 * The run's validity as it bears on its DP claim: findings about the ε itself (hyperparameters searched
 * on private data without accounting) block the gate; the attacks' findings are listed as notes, since a
 * canary audit does not read the attacks.
 */
function dpClaimValidity(view: ValidityView): ValidityView {
  const other = view.findings.filter((f) => !DP_CLAIM_CODES.has(f.code));
  return {
    ...view,
    findings: view.findings.filter((f) => DP_CLAIM_CODES.has(f.code)),
    notes: [
      ...view.notes,
      ...other.map((f) => `${f.code} (about the attacks, not the DP claim; \`mia gate\` with a ceiling or \`mia doctor\` decides on it): ${f.cause}`),
    ],
  };
}

/**
 * `mia gate --dp <file>`: a canary scores file of one's own DP training, JSON
 * `{ "format": "mia-canary-scores-1", "scores": [...], "inclusion": [0/1 ...], "claimedEpsilon", "delta",
 * "confidence"?, "decision"? }` (scores higher = more likely included, by canary id; the inclusion
 * vector drawn before training), audited as `auditCanaryScores` does.
 * @throws InvalidArgumentError on a file that is not such JSON, naming the field.
 */
export async function gateDpScoresFile(file: string, confidence: number | undefined): Promise<GateOutcome> {
  const text = await readFile(file === '-' ? '/dev/stdin' : file, 'utf8').catch((error: unknown) => {
    throw cannotRead('gate', 'canary scores file', file, error);
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new InvalidArgumentError(`gate: ${file} is not valid JSON (--dp reads a ${CANARY_SCORES_FORMAT} file)`, { cause });
  }
  const input = parsed as Record<string, unknown>;
  if (typeof input !== 'object' || input === null || Array.isArray(input) || input.format !== CANARY_SCORES_FORMAT)
    throw new InvalidArgumentError(
      `gate: --dp reads a canary scores file with format ${JSON.stringify(CANARY_SCORES_FORMAT)} (scores, inclusion, claimedEpsilon, delta), got format ${JSON.stringify((input as { format?: unknown } | null)?.format)} in ${file}`,
    );
  for (const key of ['scores', 'inclusion'] as const)
    if (!Array.isArray(input[key]))
      throw new InvalidArgumentError(`gate: ${file}: ${key} must be an array (one entry per canary), got ${JSON.stringify(input[key])?.slice(0, 40)}`);
  for (const key of ['claimedEpsilon', 'delta'] as const)
    if (typeof input[key] !== 'number' && !(key === 'claimedEpsilon' && input[key] === null))
      throw new InvalidArgumentError(`gate: ${file}: ${key} must be a number, got ${JSON.stringify(input[key])}`);
  const verdict = auditCanaryScores({
    scores: input.scores as number[],
    inclusion: input.inclusion as number[],
    claimedEpsilon: input.claimedEpsilon === null ? Infinity : (input.claimedEpsilon as number),
    delta: input.delta as number,
    ...(confidence !== undefined ? { confidence } : typeof input.confidence === 'number' ? { confidence: input.confidence } : {}),
    ...(typeof input.decision === 'string' ? { decision: input.decision as DpAuditDecision } : {}),
  });
  return { exitCode: verdict.broken ? 1 : 0, line: `${verdict.broken ? 'FAIL' : 'PASS'} ${file}: ${verdict.message}` };
}
