import { CLAIM_VERDICTS, type ClaimVerdict, type ReproductionResult } from './types';

/** How many claims of a reproduction got each verdict, and whether they were decided with the gate and margins. */
export interface VerdictCounts {
  readonly claims: number;
  readonly verdicts: Readonly<Record<ClaimVerdict, number>>;
  /** False for results computed before the testability gate (their verdicts are strict inequalities on single seeds). */
  readonly gated: boolean;
  /** The verdict rules the claims were decided with (undefined: before the testability gate). */
  readonly rules: number | undefined;
  /**
   * False for results decided before verdict rules 3: their claims keep evidence text only, and a
   * "partial" there may include columns that did not hold.
   */
  readonly structured: boolean;
}

/**
 * Counts the verdicts of a reproduction's claims as they were written (docs/protocol.md §5.1); a
 * verdict string this version does not know is an error rather than a silent miscount.
 * @throws Error naming the claim and the unknown verdict.
 */
export function verdictCounts(result: Pick<ReproductionResult, 'claims' | 'name'> & { readonly verdictRules?: number }): VerdictCounts {
  const verdicts = Object.fromEntries(CLAIM_VERDICTS.map((v) => [v, 0])) as Record<ClaimVerdict, number>;
  for (const c of result.claims) {
    if (!CLAIM_VERDICTS.includes(c.verdict))
      throw new Error(
        `verdictCounts: claim ${JSON.stringify(c.statement)} of ${result.name} has verdict ${JSON.stringify(c.verdict)}, expected one of ${CLAIM_VERDICTS.join(', ')}`,
      );
    verdicts[c.verdict] += 1;
  }
  const rules = result.verdictRules;
  return { claims: result.claims.length, verdicts, gated: rules !== undefined && rules >= 2, rules, structured: rules !== undefined && rules >= 3 };
}
