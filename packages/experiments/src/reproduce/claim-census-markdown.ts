import type { CensusClaim, CensusCounts, ClaimCensus } from './claim-census';
import { BEYOND_THIS_MACHINE, CLAIM_NEED_KINDS, CLAIM_NEED_LABELS, needsLine } from './claim-needs';
import { CLAIM_VERDICTS } from './types';

/** Options of {@link claimCensusMarkdown}. */
export interface ClaimCensusMarkdownOptions {
  /** The share of the papers' claims that should be decided (a fraction), stated beside the measured one. @default 0.6 */
  readonly target?: number;
}

const HEADER = ['Paper', 'claims', 'held', 'did not hold', 'within noise', 'not testable', 'not evaluated', 'partial', 'of which agreeing', 'decided', 'share'];

/** A percentage of a count, rounded to a whole percent ("n/a" of none). */
const percent = (part: number, whole: number): string => (whole === 0 ? 'n/a' : `${Math.round((100 * part) / whole)} %`);

const row = (label: string, c: CensusCounts, bold = false): string => {
  const cells = [
    String(c.claims),
    ...CLAIM_VERDICTS.map((v) => String(c.verdicts[v])),
    String(c.agreeingPartial),
    String(c.decided),
    percent(c.decided, c.claims),
  ];
  return `| ${[label, ...cells.map((x) => (bold ? `**${x}**` : x))].join(' | ')} |`;
};

/** A paper's short name: its `paper` field before the first " (" ("CCL (Liu et al., ICML 2024)" → "CCL"). */
const shortName = (paper: string): string => paper.split(' (')[0]!;

const claimLine = (c: CensusClaim): string => `- \`${c.reproduction}\` #${c.number} (${c.verdict}): ${needsLine(c.needs)} — ${c.statement}`;

/** "saturated 12, not in regime 9, …": how many undecided claims need each kind. */
function needCounts(claims: readonly CensusClaim[]): string {
  return CLAIM_NEED_KINDS.flatMap((kind) => {
    const n = claims.filter((c) => c.needs.some((x) => x.kind === kind)).length;
    return n === 0 ? [] : [`${CLAIM_NEED_LABELS[kind]} ${n}`];
  }).join(', ');
}

/**
 * The census as Markdown: a table of the papers' claims by verdict per paper, their total and our
 * own claims apart, with the decided share of each; one sentence stating the target share and the
 * measured one; then every undecided claim in one line with what it needs (papers' claims first,
 * then ours), and how many need only what this machine cannot provide.
 */
export function claimCensusMarkdown(census: ClaimCensus, options: ClaimCensusMarkdownOptions = {}): string {
  const target = options.target ?? 0.6;
  const { total } = census;
  const met = total.claims > 0 && total.decided / total.claims >= target;
  const undecided = census.claims.filter((c) => !c.decided && !c.own);
  const ownUndecided = census.claims.filter((c) => !c.decided && c.own);
  const beyond = undecided.filter((c) => c.needs.length > 0 && c.needs.every((n) => BEYOND_THIS_MACHINE.includes(n.kind))).length;
  const staleNote =
    total.stale === 0 ? '' : `; ${total.stale} of the ${total.claims} are in results measured with an earlier plan than their reproduction's current one`;
  return [
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...census.papers.map((p) => row(shortName(p.paper), p.counts)),
    row("**papers' claims**", total, true),
    ...(census.ours.claims === 0 ? [] : [row("ours (not a paper's claim)", census.ours)]),
    '',
    `Target: at least ${Math.round(100 * target)} % of the papers' claims decided (held, did not hold, or partial with every decided column agreeing); measured: **${total.decided} of ${total.claims} (${percent(total.decided, total.claims)})**, ${met ? 'target met' : 'target not met'}${staleNote}.`,
    '',
    `What each undecided claim of a paper needs (${undecided.length} ${undecided.length === 1 ? 'claim' : 'claims'}, of which ${beyond} ${beyond === 1 ? 'needs' : 'need'} only what this machine cannot provide: ${BEYOND_THIS_MACHINE.map((k) => CLAIM_NEED_LABELS[k]).join(', ')}). Claims per need: ${needCounts(undecided) || 'none'}.`,
    '',
    ...undecided.map(claimLine),
    ...(ownUndecided.length === 0 ? [] : ['', 'Our own undecided claims:', '', ...ownUndecided.map(claimLine)]),
  ].join('\n');
}
