import type { Claim, ColumnDecision, Decision, ReproductionResult, UndecidedDecision, UndecidedKind } from './types';

/** `T` without `kind`, member by member of a union. */
type WithoutKind<T> = T extends unknown ? Omit<T, 'kind'> : never;

/** A decision as reproduction.json stores it: an undecided one without its `kind` (its verdict and reason say it in words). */
export type StoredDecision = WithoutKind<Decision>;

/** A claim as reproduction.json stores it: its decisions as {@link StoredDecision}s. */
export type StoredClaim = Omit<Claim, 'decision' | 'columns'> & {
  readonly decision?: StoredDecision;
  readonly columns?: ReadonlyArray<WithoutKind<ColumnDecision>>;
};

/** A reproduction as reproduction.json stores it (`JSON.parse` of the file): its claims as {@link StoredClaim}s. */
export type StoredReproductionResult = Omit<ReproductionResult, 'claims'> & { readonly claims: readonly StoredClaim[] };

function withoutKind<D extends Decision>(decision: D): WithoutKind<D> {
  const { kind: _kind, ...stored } = decision;
  return stored as WithoutKind<D>;
}

/**
 * The {@link UndecidedKind} a stored undecided decision says in words — the one place the wording is
 * read: a not-evaluated one whose reason reads "not run…" was not run, a not-testable one whose
 * reason reads "shown, not decided…" was shown without a decision (`compareEstimates`).
 */
function storedKind(decision: WithoutKind<UndecidedDecision>): UndecidedKind {
  // Results decided under older rules may lack the reason: their evidence says it then.
  const reason = (decision.reason as string | undefined) ?? decision.evidence;
  if (decision.verdict === 'not evaluated') return /^not run\b/i.test(reason) ? 'not-run' : 'not-evaluated';
  return reason.startsWith('shown, not decided') ? 'shown-not-decided' : 'not-testable';
}

function withKind<D extends StoredDecision>(decision: D): Decision {
  if (decision.verdict !== 'not evaluated' && decision.verdict !== 'not testable') return decision as Decision;
  // A decision that says its kind already (a result in memory) keeps it.
  if ((decision as Partial<UndecidedDecision>).kind !== undefined) return decision as Decision;
  return { ...decision, kind: storedKind(decision as WithoutKind<UndecidedDecision>) } as Decision;
}

/**
 * A result in the form reproduction.json stores it: every field as it is, each undecided decision
 * without its `kind` (its verdict and reason say it: a not-run reason reads "not run…", a shown one
 * "shown, not decided…"). {@link reproductionFromStored} reads it back.
 */
export function storedReproduction<R extends Pick<ReproductionResult, 'claims'>>(result: R): Omit<R, 'claims'> & { readonly claims: readonly StoredClaim[] } {
  return {
    ...result,
    claims: result.claims.map((c): StoredClaim => ({
      ...c,
      ...(c.decision === undefined ? {} : { decision: withoutKind(c.decision) }),
      ...(c.columns === undefined ? {} : { columns: c.columns.map((d) => withoutKind(d)) }),
    })),
  };
}

/**
 * A stored reproduction.json (parsed) as a result: each undecided decision's {@link UndecidedKind}
 * read back from its verdict and the wording of its reason, so it renders as when it was decided. A
 * decision that has its kind keeps it, so a result in memory passes through unchanged.
 */
export function reproductionFromStored<S extends { readonly claims: readonly StoredClaim[] }>(
  stored: S,
): Omit<S, 'claims'> & Pick<ReproductionResult, 'claims'> {
  return {
    ...stored,
    // Spread over the claim itself so that the keys keep their order (a result read back is written back unchanged).
    claims: stored.claims.map(
      (c) =>
        ({
          ...c,
          ...(c.decision === undefined ? {} : { decision: withKind(c.decision) }),
          ...(c.columns === undefined ? {} : { columns: c.columns.map((d) => withKind(d) as ColumnDecision) }),
        }) as Claim,
    ),
  };
}
