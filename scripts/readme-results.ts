// Regenerates the result sections of the example READMEs from the reproductions' real output.
// In examples/<paper>/README.md, a block
//   <!-- results: <name> <scale> -->
//   …
//   <!-- /results -->
// is replaced by the tables, claims, runtime and backend of examples/<paper>/results/<name>-<scale>/reproduction.json,
// which `pnpm mia reproduce <name> --scale <scale> --out examples/<paper>/results/<name>-<scale>` wrote.
// The root README's block <!-- verdicts --> … <!-- /verdicts --> gets a table per paper of the claims'
// verdicts counted from the same files, and under it the sub-verdicts of every claim that is partial or
// does not hold (from the claims' structured per-column decisions, verdict rules ≥ 3). Results decided
// under older rules are marked: their claims carry evidence text only, which is not parsed, and a
// "partial" there may include columns that did not hold.
// Verdicts stated in prose (README.md, examples/*/README.md, docs/anchors.md) are spans
//   <!-- verdict: <name> <scale> "<statement part>"[ <column>] -->…<!-- /verdict -->
// filled in from the same files (scripts/verdict-spans.ts; test/docs-consistency.test.ts checks them).
// The root README's block <!-- census --> … <!-- /census --> counts the papers' claims by verdict, the
// share decided, and what each undecided claim needs (scripts/committed-results.ts, `claimCensus`);
// the script prints it after regenerating.
// Usage: pnpm readme:results [--check | --census]   (--check: exit 1 when a README is out of date or a
// result is missing; --census: print the census only, write nothing)
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CLAIM_VERDICTS,
  claimsMarkdown,
  reproductionFromStored,
  subVerdicts,
  tableMarkdown,
  verdictCounts,
  type ReproductionResult,
  type StoredReproductionResult,
} from '@mia/experiments/reproduce';
import { censusBlock, committedResults, earlierPlanDirs } from './committed-results';
import { fillVerdictSpans } from './verdict-spans';

const root = resolve(import.meta.dirname, '..');
const check = process.argv.includes('--check');
const censusOnly = process.argv.includes('--census');
const BLOCK = /<!-- results: (\S+) (smoke|cpu|paper) -->\n[\s\S]*?<!-- \/results -->/g;
let stale = 0;
/** A committed reproduction.json, its undecided decisions' kinds read back from their wording. */
const readResult = (file: string): ReproductionResult => reproductionFromStored(JSON.parse(readFileSync(file, 'utf8')) as StoredReproductionResult);

// Results whose runs the reproduction's current plan no longer matches (another config, or runs it did
// not store such as more training seeds): replaying the claim builders on the stored runs says so.
const committed = committedResults(root);
const earlierPlan = await earlierPlanDirs(committed);
const census = censusBlock(committed, earlierPlan);
if (censusOnly) {
  console.log(census);
  process.exit(0);
}
const EARLIER_PLAN = (name: string, scale: string) =>
  `measured with an earlier plan than the reproduction's current one (other configs, or fewer training seeds): the numbers stand as measured then and are to be re-run with \`pnpm mia reproduce ${name} --scale ${scale}\``;

function section(dir: string, name: string, scale: string): string {
  const file = join(dir, 'results', `${name}-${scale}`, 'reproduction.json');
  if (!existsSync(file)) {
    stale += 1;
    return `_Not produced yet: run \`pnpm mia reproduce ${name} --scale ${scale} --out ${join('examples', dir.split('/').pop()!, 'results', `${name}-${scale}`)}\` then \`pnpm readme:results\`._`;
  }
  const r = readResult(file);
  if (r.format !== 'mia-reproduction-1') throw new Error(`${file}: format ${JSON.stringify(r.format)}, expected "mia-reproduction-1"`);
  const minutes = (r.seconds / 60).toFixed(1);
  // How much of the run trained here and how long every model took when it was trained (the cold-cache cost).
  let trained = 0;
  let models = 0;
  let trainSeconds = 0;
  const runs = join(dir, 'results', `${name}-${scale}`, 'runs');
  for (const id of existsSync(runs) ? readdirSync(runs) : []) {
    const file = join(runs, id, 'results.json');
    if (!existsSync(file)) continue;
    const rows = (JSON.parse(readFileSync(file, 'utf8')) as { rows: Array<{ cache: Record<string, string>; trainSeconds: number }> }).rows;
    for (const row of rows) {
      models += Object.values(row.cache).filter((c) => c !== 'none').length;
      trained += Object.values(row.cache).filter((c) => c === 'miss').length;
      trainSeconds += row.trainSeconds;
    }
  }
  const cache =
    models === 0
      ? ''
      : trained === models
        ? `; all ${models} models trained in this run`
        : `; ${trained} of ${models} models trained in this run, the others read from the cache — training all ${models} took ${(trainSeconds / 60).toFixed(1)} min when they were trained`;
  const earlier = earlierPlan.has(join(dir, 'results', `${name}-${scale}`)) ? ['', `**Note:** ${EARLIER_PLAN(r.name, r.scale)}.`] : [];
  return [
    `Produced by \`pnpm mia reproduce ${r.name} --scale ${r.scale}\` on ${r.startedAt.slice(0, 10)}: **${minutes} min** wall (backend ${r.backend}${cache}).`,
    ...earlier,
    '',
    ...r.notes.map((n) => `> ${n}\n`),
    ...r.tables.map((t) => tableMarkdown(t).replace(/^### /, '#### ')),
    '**Claims**',
    '',
    claimsMarkdown(r),
  ].join('\n');
}

/** `text` with its verdict spans filled in; a span naming no committed claim is an error. */
function spans(file: string, text: string): string {
  const { text: filled, problems } = fillVerdictSpans(text, root);
  if (problems.length > 0) throw new Error(`${file}:\n  ${problems.join('\n  ')}`);
  return filled;
}

for (const example of readdirSync(join(root, 'examples'))) {
  const dir = join(root, 'examples', example);
  const readme = join(dir, 'README.md');
  if (!existsSync(readme)) continue;
  const text = readFileSync(readme, 'utf8');
  const next = spans(
    readme,
    text.replace(BLOCK, (_m, name: string, scale: string) => `<!-- results: ${name} ${scale} -->\n${section(dir, name, scale)}\n<!-- /results -->`),
  );
  if (next !== text) {
    if (check) {
      console.error(`${readme} is out of date: run pnpm readme:results`);
      stale += 1;
    } else writeFileSync(readme, next);
  }
}
// The root README's verdict table: per paper, one row per produced reproduction and a total, then the
// sub-verdicts of the claims that are partial or do not hold.
function verdictTables(): string {
  const header = ['Reproduction', 'claims', 'held', 'did not hold', 'within noise', 'not testable', 'not evaluated', 'partial'];
  const out: string[] = [];
  for (const example of readdirSync(join(root, 'examples')).sort()) {
    const results = join(root, 'examples', example, 'results');
    if (!existsSync(results)) continue;
    const rows: string[][] = [];
    const total = Object.fromEntries(CLAIM_VERDICTS.map((v) => [v, 0])) as Record<(typeof CLAIM_VERDICTS)[number], number>;
    let claims = 0;
    let ungated = 0;
    let oldRules = 0;
    let earlier = 0;
    const details: string[] = [];
    for (const dir of readdirSync(results).sort()) {
      const file = join(results, dir, 'reproduction.json');
      if (!existsSync(file)) continue;
      const r = readResult(file);
      const counts = verdictCounts(r);
      claims += counts.claims;
      for (const v of CLAIM_VERDICTS) total[v] += counts.verdicts[v];
      if (!counts.gated) ungated += 1;
      else if (!counts.structured) oldRules += 1;
      const replan = earlierPlan.has(join(results, dir));
      if (replan) earlier += 1;
      const mark = (!counts.gated ? ' †' : !counts.structured ? ' ‡' : '') + (replan ? ' §' : '');
      rows.push([`\`${r.name}\` (${r.scale})${mark}`, String(counts.claims), ...CLAIM_VERDICTS.map((v) => String(counts.verdicts[v]))]);
      r.claims.forEach((c, i) => {
        if (c.verdict !== 'partial' && c.verdict !== 'does not hold') return;
        const sub = subVerdicts(c);
        const text =
          sub ??
          (counts.structured
            ? c.verdict
            : `${c.verdict} (decided under the old rules${c.verdict === 'partial' ? ': its columns may include some that did not hold' : ''})`);
        details.push(`- \`${r.name}\` #${i + 1}${mark}: ${text} — ${c.statement}`);
      });
    }
    if (rows.length === 0) continue;
    rows.push(['**total**', `**${claims}**`, ...CLAIM_VERDICTS.map((v) => `**${total[v]}**`)]);
    out.push(
      `**${example}**`,
      '',
      `| ${header.join(' | ')} |`,
      `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
    );
    if (ungated > 0)
      out.push(
        `† computed before the testability gate: strict inequalities on single seeds, no margins; "held" there is not a finding (${ungated} of ${rows.length - 1}).`,
        '',
      );
    if (oldRules > 0)
      out.push(
        `‡ decided under verdict rules 2 (${oldRules} of ${rows.length - 1}): margins and the regime gate, but a claim over several columns was "partial" whenever some columns were decided, whatever those decisions were — a "partial" there may hide a column that did not hold; no multiplicity rule. To be re-decided under the current rules (docs/protocol.md §5.1).`,
        '',
      );
    if (earlier > 0) out.push(`§ ${EARLIER_PLAN('<name>', 'cpu')} (${earlier} of ${rows.length - 1}).`, '');
    if (details.length > 0) out.push('Claims that are partial or do not hold, with their sub-verdicts:', '', ...details, '');
  }
  return out.join('\n').trimEnd();
}

const rootReadme = join(root, 'README.md');
const rootText = readFileSync(rootReadme, 'utf8');
const VERDICTS = /<!-- verdicts -->\n[\s\S]*?<!-- \/verdicts -->/;
if (!VERDICTS.test(rootText)) throw new Error(`${rootReadme}: no <!-- verdicts --> … <!-- /verdicts --> block`);
const CENSUS = /<!-- census -->\n[\s\S]*?<!-- \/census -->/;
if (!CENSUS.test(rootText)) throw new Error(`${rootReadme}: no <!-- census --> … <!-- /census --> block`);
const rootNext = spans(
  rootReadme,
  rootText
    .replace(VERDICTS, () => `<!-- verdicts -->\n${verdictTables()}\n<!-- /verdicts -->`)
    .replace(CENSUS, () => `<!-- census -->\n${census}\n<!-- /census -->`),
);
if (rootNext !== rootText) {
  if (check) {
    console.error(`${rootReadme} is out of date: run pnpm readme:results`);
    stale += 1;
  } else writeFileSync(rootReadme, rootNext);
}
// docs/anchors.md states verdicts in its plans' outcome paragraphs: spans only.
const anchors = join(root, 'docs', 'anchors.md');
const anchorsText = readFileSync(anchors, 'utf8');
const anchorsNext = spans(anchors, anchorsText);
if (anchorsNext !== anchorsText) {
  if (check) {
    console.error(`${anchors} is out of date: run pnpm readme:results`);
    stale += 1;
  } else writeFileSync(anchors, anchorsNext);
}
if (check && stale > 0) process.exit(1);
console.log(stale > 0 ? `${stale} result block(s) without a produced result` : 'all result blocks up to date');
if (!check) console.log(`\nClaim census (the root README's <!-- census --> block):\n\n${census}`);
