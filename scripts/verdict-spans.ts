// Verdicts stated in README and doc prose about committed reproductions, generated from their
// reproduction.json (scripts/readme-results.ts fills them; test/docs-consistency.test.ts checks them).
//
// A span
//   <!-- verdict: <name> <scale> "<statement part>"[ <column>] -->…<!-- /verdict -->
// is replaced by the verdict of the claim of examples/<paper>/results/<name>-<scale>/reproduction.json
// whose statement contains <statement part> (exactly one must; `#<n>`, the n-th claim, also works but
// silently follows a reordering), in bold — or, with <column>, the verdict of that column of the claim —
// followed by its Δ ± SE when it is a decided single comparison or column: "**holds** (Δ +0.024 ± 0.009)". Prose around a span must not restate the verdict: outside spans,
// generated blocks and code, a verdict word (holds, does not hold, within noise, not testable,
// partial, …) may only appear quoted, as the name of a verdict ("not testable"), never as a finding.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimSummary, reproductionFromStored, type Claim, type ReproductionResult, type StoredReproductionResult } from '@mia/experiments/reproduce';

/** A verdict span: name, scale, claim number, optional column, current content. */
export const VERDICT_SPAN = /<!-- verdict: (\S+) (smoke|cpu|paper) (#\d+|"[^"]+")(?: ([^<>\n]+?))? -->([\s\S]*?)<!-- \/verdict -->/g;

/** The committed `reproduction.json` of a reproduction at a scale (examples/<paper>/results/<name>-<scale>/), or undefined. */
export function committedResult(root: string, name: string, scale: string): ReproductionResult | undefined {
  const file = join(root, 'examples', name.split('-')[0]!, 'results', `${name}-${scale}`, 'reproduction.json');
  return existsSync(file) ? reproductionFromStored(JSON.parse(readFileSync(file, 'utf8')) as StoredReproductionResult) : undefined;
}

/** The claim a span's key names: `#<n>` (1-based) or `"<part of its statement>"` (exactly one claim must contain it). */
export function claimOf(result: ReproductionResult, key: string): Claim {
  if (key.startsWith('#')) {
    const claim = result.claims[Number(key.slice(1)) - 1];
    if (claim === undefined) throw new Error(`${result.name} (${result.scale}) has no claim ${key} (it has ${result.claims.length})`);
    return claim;
  }
  const part = key.replace(/^"|"$/g, '');
  const matches = result.claims.filter((c) => c.statement.includes(part));
  if (matches.length !== 1)
    throw new Error(
      `${result.name} (${result.scale}): ${matches.length} claims contain ${JSON.stringify(part)}, expected exactly one (statements: ${result.claims.map((c) => JSON.stringify(c.statement.slice(0, 60))).join(', ')})`,
    );
  return matches[0]!;
}

/**
 * The text of a verdict span: the claim's (or its column's) verdict in bold, then Δ ± SE when that is
 * one decided comparison. Throws when the claim or column does not exist.
 */
export function renderVerdict(result: ReproductionResult, key: string, column?: string): string {
  const claim = claimOf(result, key);
  const claimNumber = key;
  const target = column === undefined ? { verdict: claim.verdict, ...(claim.decision === undefined ? {} : { decision: claim.decision }) } : undefined;
  let summary: string;
  if (target !== undefined) summary = claimSummary(target);
  else {
    const c = claim.columns?.find((x) => x.column === column);
    if (c === undefined)
      throw new Error(
        `${result.name} (${result.scale}) claim ${claimNumber} has no column ${JSON.stringify(column)} (columns: ${(claim.columns ?? []).map((x) => JSON.stringify(x.column)).join(', ') || 'none'})`,
      );
    summary = claimSummary({ verdict: c.verdict, decision: c });
  }
  const verdict = column === undefined ? claim.verdict : claim.columns!.find((x) => x.column === column)!.verdict;
  return `**${verdict}**${summary.slice(verdict.length)}`;
}

/**
 * Every verdict span of `text` filled in from the committed results; `problems` names the spans whose
 * reproduction, claim or column does not exist (left as they are).
 */
export function fillVerdictSpans(text: string, root: string): { readonly text: string; readonly problems: readonly string[] } {
  const problems: string[] = [];
  const filled = text.replace(VERDICT_SPAN, (whole, name: string, scale: string, key: string, column: string | undefined) => {
    const result = committedResult(root, name, scale);
    if (result === undefined) {
      problems.push(`verdict span for ${name} ${scale}: no committed reproduction.json`);
      return whole;
    }
    try {
      return `<!-- verdict: ${name} ${scale} ${key}${column === undefined ? '' : ` ${column}`} -->${renderVerdict(result, key, column)}<!-- /verdict -->`;
    } catch (error) {
      problems.push(`verdict span ${JSON.stringify(whole.slice(0, 80))}: ${(error as Error).message}`);
      return whole;
    }
  });
  return { text: filled, problems };
}

/** The verdict words: a finding when unquoted. `held-out`, `hold-out` are not verdicts. */
const VERDICT_WORDS = /\b(?:does not hold|did not hold|do not hold|holds?|held(?![-‑])|within noise|not testable|partial(?:ly)?)\b/gi;

/**
 * Verdict words stated as findings in `text`: outside verdict spans, generated blocks (`<!-- results:
 * … -->`, `<!-- verdicts -->`, `<!-- census -->`), code and quotes. Each with its 1-based line and the sentence around it.
 */
export function unmarkedVerdicts(text: string): Array<{ readonly line: number; readonly word: string; readonly context: string }> {
  // Blank out (keeping newlines, so line numbers stay) everything a verdict word may appear in.
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  let t = text
    .replace(/<!-- results: [\s\S]*?<!-- \/results -->/g, blank)
    .replace(/<!-- verdicts -->[\s\S]*?<!-- \/verdicts -->/g, blank)
    .replace(/<!-- census -->[\s\S]*?<!-- \/census -->/g, blank)
    .replace(VERDICT_SPAN, blank)
    .replace(/```[\s\S]*?```/g, blank)
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/`[^`\n]*`/g, blank);
  // Quotes ("…", “…”) may wrap a line but not a paragraph: pair them paragraph by paragraph.
  t = t
    .split(/(\n\s*\n)/)
    .map((paragraph) => paragraph.replace(/"[^"]*"|“[^”]*”/g, blank))
    .join('');
  const found: Array<{ line: number; word: string; context: string }> = [];
  for (const m of t.matchAll(VERDICT_WORDS)) {
    const line = t.slice(0, m.index).split('\n').length;
    const start = Math.max(0, text.lastIndexOf('\n', m.index) + 1);
    found.push({ line, word: m[0], context: text.slice(start, text.indexOf('\n', m.index) === -1 ? undefined : text.indexOf('\n', m.index)).trim() });
  }
  return found;
}
