import { claimNeeds, type ClaimNeed } from './claim-needs';
import { reproductionFromStored, type StoredReproductionResult } from './stored-reproduction';
import { isDecided } from './verdicts';
import { verdictCounts } from './verdict-counts';
import { CLAIM_VERDICTS, type Claim, type ClaimVerdict, type ReproductionResult, type ReproductionScale } from './types';

/** Claims counted by verdict, with how many are decided. */
export interface CensusCounts {
  readonly claims: number;
  readonly verdicts: Readonly<Record<ClaimVerdict, number>>;
  /** Partial claims whose decided columns agree ({@link partialAgrees}). */
  readonly agreeingPartial: number;
  /** Decided claims: held, did not hold, or partial with agreeing columns. */
  readonly decided: number;
  /** Claims of results measured with an earlier plan than their reproduction's current one. */
  readonly stale: number;
}

/** One claim in the census: where it is, its verdict, whether it is decided, and what it needs if not. */
export interface CensusClaim {
  readonly reproduction: string;
  readonly scale: ReproductionScale;
  readonly paper: string;
  /** 1-based, as the READMEs number claims. */
  readonly number: number;
  readonly statement: string;
  readonly verdict: ClaimVerdict;
  /** True for our own claims (not a paper's: {@link isOwnClaim}). */
  readonly own: boolean;
  readonly decided: boolean;
  /** What it needs before it can be decided (`claimNeeds`); empty when decided. */
  readonly needs: readonly ClaimNeed[];
}

/** The census of one paper's claims. */
export interface PaperCensus {
  readonly paper: string;
  /** Names of its reproductions, in input order. */
  readonly reproductions: readonly string[];
  readonly counts: CensusCounts;
}

/** The papers' claims by verdict, per paper and in total, our own claims apart, and every claim with its needs. */
export interface ClaimCensus {
  /** Per paper (by `ReproductionResult.paper`), in input order of their first reproduction; papers' claims only. */
  readonly papers: readonly PaperCensus[];
  /** Every paper's claims together. */
  readonly total: CensusCounts;
  /** Our own claims (a reproduction of ours, or a claim a paper's reproduction marks as ours). */
  readonly ours: CensusCounts;
  /** Every claim, in input order. */
  readonly claims: readonly CensusClaim[];
}

/** Options of {@link claimCensus}. */
export interface ClaimCensusOptions {
  /** Whether a result was measured with an earlier plan than its reproduction's current one (its undecided claims need a re-run). @default none is */
  readonly stale?: (result: Pick<ReproductionResult, 'name' | 'scale'>) => boolean;
}

/**
 * Whether a partial claim's decided columns agree: it has per-column decisions, at least one column
 * is decided (held, did not hold, within noise), and every decided column has the same verdict,
 * "holds" or "does not hold" (a column within noise, or columns that differ, do not agree). Columns
 * not decided (not run, not evaluated, not testable) do not count. False for any other verdict and
 * for a partial decided under verdict rules before 3 (no per-column decisions).
 */
export function partialAgrees(claim: Pick<Claim, 'verdict' | 'columns'>): boolean {
  if (claim.verdict !== 'partial' || claim.columns === undefined) return false;
  const decided = claim.columns.filter((c) => isDecided(c.verdict));
  const first = decided[0]?.verdict;
  return (first === 'holds' || first === 'does not hold') && decided.every((c) => c.verdict === first);
}

/** Whether a claim is decided: it holds, does not hold, or is partial with agreeing columns ({@link partialAgrees}). */
export const claimDecided = (claim: Pick<Claim, 'verdict' | 'columns'>): boolean =>
  claim.verdict === 'holds' || claim.verdict === 'does not hold' || partialAgrees(claim);

/**
 * Whether a claim is ours, not a paper's: its reproduction's `paper` starts with "ours" (e.g. "ours
 * (no paper drew this plane)"), or its statement does ("ours: …", "ours (not a claim of the paper): …").
 */
export const isOwnClaim = (paper: string, statement: string): boolean => /^ours\b/i.test(paper) || /^ours\b/i.test(statement);

const emptyCounts = () => ({
  claims: 0,
  verdicts: Object.fromEntries(CLAIM_VERDICTS.map((v) => [v, 0])) as Record<ClaimVerdict, number>,
  agreeingPartial: 0,
  decided: 0,
  stale: 0,
});

function countInto(counts: ReturnType<typeof emptyCounts>, claim: CensusClaim, stale: boolean): void {
  counts.claims += 1;
  counts.verdicts[claim.verdict] += 1;
  if (claim.verdict === 'partial' && claim.decided) counts.agreeingPartial += 1;
  if (claim.decided) counts.decided += 1;
  if (stale) counts.stale += 1;
}

/**
 * The census of the claims of `reproductions` (committed `reproduction.json` files, parsed; read with
 * `reproductionFromStored`): per paper and in total, the papers' claims by verdict and how many are
 * decided ({@link claimDecided}); our own claims ({@link isOwnClaim}) counted apart; and every claim
 * with what it needs when it is not decided (`claimNeeds`: within noise, not testable, not
 * evaluated, or partial with columns that do not agree).
 * @throws Error naming the claim when a verdict is not one of CLAIM_VERDICTS (`verdictCounts`).
 */
export function claimCensus(reproductions: ReadonlyArray<StoredReproductionResult | ReproductionResult>, options: ClaimCensusOptions = {}): ClaimCensus {
  const papers = new Map<string, { paper: string; reproductions: string[]; counts: ReturnType<typeof emptyCounts> }>();
  const total = emptyCounts();
  const ours = emptyCounts();
  const claims: CensusClaim[] = [];
  for (const stored of reproductions) {
    const result = reproductionFromStored(stored);
    verdictCounts(result);
    const stale = options.stale?.(result) ?? false;
    result.claims.forEach((c, i) => {
      const decided = claimDecided(c);
      const claim: CensusClaim = {
        reproduction: result.name,
        scale: result.scale,
        paper: result.paper,
        number: i + 1,
        statement: c.statement,
        verdict: c.verdict,
        own: isOwnClaim(result.paper, c.statement),
        decided,
        needs: decided ? [] : claimNeeds(c, stale),
      };
      claims.push(claim);
      if (claim.own) return countInto(ours, claim, stale);
      const entry = papers.get(result.paper) ?? { paper: result.paper, reproductions: [], counts: emptyCounts() };
      if (!entry.reproductions.includes(result.name)) entry.reproductions.push(result.name);
      papers.set(result.paper, entry);
      countInto(entry.counts, claim, stale);
      countInto(total, claim, stale);
    });
  }
  return { papers: [...papers.values()], total, ours, claims };
}
