import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES } from '../packages/experiments/src/train/backend-choice';
import { CLAIM_VERDICTS } from '../packages/experiments/src/reproduce/types';
import { VERDICT_SPAN, committedResult, fillVerdictSpans, renderVerdict, unmarkedVerdicts } from '../scripts/verdict-spans';
import { censusBlock, committedResults, earlierPlanDirs } from '../scripts/committed-results';

// The figures the docs state that can be checked against the code: the `--backend` values, the
// command lists, the verdict names, the test-time figures; and no path that assumes a clone's name.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const guides = readdirSync(join(root, 'docs', 'guides'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => join('docs', 'guides', f));
const packageReadmes = readdirSync(join(root, 'packages')).map((p) => join('packages', p, 'README.md'));
const docs = ['README.md', ...guides, ...packageReadmes];

const help = spawnSync(process.execPath, ['--conditions=@mia/source', '--import', 'tsx', 'scripts/mia.ts', '--help'], {
  cwd: root,
  encoding: 'utf8',
  timeout: 110_000,
});
/** The commands `mia --help` lists (without `help`). */
const helpCommands = (): string[] => {
  const section = help.stdout.split('Commands:')[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
};
/** The first word of each `mia …` command in `text`'s inline code spans (`mia run <config>` → run). */
const commandWordsIn = (text: string): string[] => [...new Set([...text.matchAll(/`(?:pnpm |npx )?mia ([a-z][\w-]*)/g)].map((m) => m[1]!))];

describe('docs agree with the code', () => {
  it('`mia --help` ran', () => {
    expect(help.status, help.stderr).toBe(0);
    expect(helpCommands()).toContain('run');
  });

  it('every `--backend a|b|…` list in the docs is the set the CLI accepts, and so is the CLI help', () => {
    const lists = docs.flatMap((file) => [...read(file).matchAll(/--backend ([\w-]+(?:\|[\w-]+)+)/g)].map((m) => ({ where: file, names: m[1]!.split('|') })));
    expect(lists.length).toBeGreaterThan(0);
    for (const { where, names } of lists) expect([...names].sort(), where).toEqual([...BACKEND_NAMES].sort());
    const option = /--backend <name>\s+backend to use: ([^(]+)\(/.exec(help.stdout.replace(/\s+/g, ' '))?.[1] ?? '';
    expect(
      option
        .split(/,\s*|\s+or\s+/)
        .map((n) => n.trim())
        .filter(Boolean)
        .sort(),
    ).toEqual([...BACKEND_NAMES].sort());
  });

  it("the README's command list and the experiments README's command table name exactly `mia --help`'s commands", () => {
    const readme = read('README.md');
    const listed = /`pnpm mia --help` lists the\s+other commands \(([^)]*)\)/.exec(readme)?.[1];
    expect(listed, 'README: "`pnpm mia --help` lists the other commands (…)"').toBeDefined();
    const readmeCommands = [...listed!.matchAll(/`([a-z][\w-]*)/g)].map((m) => m[1]!);
    expect([...readmeCommands].sort()).toEqual([...helpCommands()].sort());
    const table = read('packages/experiments/README.md')
      .split('\n')
      .filter((l) => l.startsWith('| `mia '))
      .join('\n');
    expect(commandWordsIn(table).sort()).toEqual([...helpCommands()].sort());
  });

  it('a guide that lists verdicts lists all of CLAIM_VERDICTS', () => {
    const verdictWords = new Set<string>(CLAIM_VERDICTS);
    let lists = 0;
    for (const file of guides) {
      for (const paragraph of read(file).split(/\n\s*\n/)) {
        if (!/verdict/i.test(paragraph)) continue;
        const named = new Set([...paragraph.matchAll(/\*\*?([a-z ]+?)\*\*?/g)].map((m) => m[1]!).filter((w) => verdictWords.has(w)));
        if (named.size < 2) continue; // mentions a verdict, does not list them
        lists += 1;
        expect([...named].sort(), `${file}: ${paragraph.slice(0, 80)}…`).toEqual([...CLAIM_VERDICTS].sort());
      }
    }
    expect(lists).toBeGreaterThan(0);
  });

  it("the README's test-time figures each say which backend and which machine they are for", () => {
    // Sentences and list items, each on one line.
    const sentences = read('README.md')
      .split(/\.\s|\n- /)
      .map((s) => s.replace(/\s+/g, ' '))
      .filter((s) => /pnpm test|runs the tests/.test(s) && /\d+\s*(min|minutes)\b/.test(s));
    expect(sentences.length).toBeGreaterThan(0);
    for (const s of sentences) {
      // The machine too: a time without its conditions (idle or shared, how many cores) says little.
      expect(s, s).toMatch(/\b(idle|busy|shared)\b/);
      expect(s, s).toMatch(/\d+-core/);
      for (const m of s.matchAll(/(\d+(?:–\d+)?)\s*(?:min|minutes)\b/g)) {
        const after = s.slice(m.index!, m.index! + 40);
        expect(after, s).toMatch(/native|wasm/);
      }
    }
  });

  it("the README's cold-run times of the reproductions and their backend are those of the committed reproduction.json files", () => {
    const results = readdirSync(join(root, 'examples')).flatMap((example) => {
      const dir = join(root, 'examples', example, 'results');
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((run) => existsSync(join(dir, run, 'reproduction.json')))
        .map((run) => JSON.parse(readFileSync(join(dir, run, 'reproduction.json'), 'utf8')) as { seconds: number; backend: string });
    });
    expect(results.length).toBeGreaterThan(0);
    const readme = read('README.md').replace(/\s+/g, ' ');
    const stated = /re-run with its cache cold on [\d-]+ on a 2-core VM with the (\w+) backend: ([\d.]+)–([\d.]+) minutes each/.exec(readme);
    expect(stated, 'README: "re-run with its cache cold on <date> on a 2-core VM with the <backend> backend: a–b minutes each"').not.toBeNull();
    const minutes = results.map((r) => r.seconds / 60);
    expect([stated![2], stated![3]]).toEqual([Math.min(...minutes).toFixed(1), Math.max(...minutes).toFixed(1)]);
    expect(new Set(results.map((r) => r.backend))).toEqual(new Set([stated![1]]));
  });

  /** The ```ts block of the README section "Add one defense to your own tfjs model". */
  const ownModelSnippet = () => {
    const section = read('README.md')
      .split(/^## /m)
      .find((s) => s.startsWith('Add one defense to your own tfjs model'));
    return section === undefined ? undefined : /```ts\n([\s\S]*?)\n```/.exec(section)?.[1];
  };

  it("the README's own-model snippet is plain JavaScript (test:packaging runs it as .mjs) and prints its result", () => {
    const code = ownModelSnippet();
    expect(code, 'README: a ```ts block under "## Add one defense to your own tfjs model"').toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'mia-snippet-'));
    try {
      writeFileSync(join(dir, 'snippet.mjs'), `${code}\n`);
      const check = spawnSync(process.execPath, ['--check', join(dir, 'snippet.mjs')], { encoding: 'utf8' });
      expect(check.status, check.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(code).toMatch(/console\.log\(/);
  });

  it("the README's own-model snippet ends by auditing the model it trained (test/guides.test.ts runs it)", () => {
    const lines = (ownModelSnippet() ?? '').trim().split('\n');
    expect(lines.join('\n')).toMatch(/^import \{ auditModel \} from '@mia\/attacks';$/m);
    expect(lines.join('\n')).toMatch(/await auditModel\(model, \{ members: \{ x: xTrain, y: yTrain \}, nonMembers: /);
    expect(lines.at(-1)).toMatch(/^console\.log\(`audit: /);
  });

  it('no install path assumes the name of the clone', () => {
    for (const file of ['README.md', ...guides]) expect(read(file), file).not.toMatch(/\.\.\/mia\//);
  });
});

// Prose agrees with results: every verdict the READMEs and docs/anchors.md state about a committed
// reproduction is a span generated from its reproduction.json (`pnpm readme:results`,
// scripts/verdict-spans.ts), and no prose outside the spans and the generated blocks states one.
describe('verdicts in prose are generated from the committed results', () => {
  const exampleReadmes = readdirSync(join(root, 'examples'))
    .map((e) => join('examples', e, 'README.md'))
    .filter((f) => existsSync(join(root, f)));
  const proseFiles = ['README.md', 'docs/anchors.md', ...exampleReadmes];

  it('every verdict span names a committed claim and shows its current verdict (run pnpm readme:results when this fails)', () => {
    let spans = 0;
    for (const file of proseFiles) {
      const text = read(file);
      spans += [...text.matchAll(VERDICT_SPAN)].length;
      const { text: filled, problems } = fillVerdictSpans(text, root);
      expect(problems, file).toEqual([]);
      const stale = [...text.matchAll(VERDICT_SPAN)].filter((m, i) => m[0] !== [...filled.matchAll(VERDICT_SPAN)][i]![0]).map((m) => m[0]);
      expect(stale, `${file}: spans out of date`).toEqual([]);
    }
    // Not vacuous: the headline verdicts of the root README and the anchors are spans.
    expect(spans).toBeGreaterThan(40);
    for (const file of ['README.md', 'docs/anchors.md', 'examples/ccl/README.md', 'examples/crl/README.md', 'examples/past/README.md'])
      expect([...read(file).matchAll(VERDICT_SPAN)].length, file).toBeGreaterThan(0);
  });

  it('no prose outside the spans, the generated blocks, code and quotes states a verdict', () => {
    for (const file of proseFiles) {
      const found = unmarkedVerdicts(read(file)).map((v) => `${file}:${v.line} "${v.word}": ${v.context.slice(0, 120)}`);
      expect(found, "state a verdict with a <!-- verdict: … --> span (scripts/verdict-spans.ts), or quote the verdict's name").toEqual([]);
    }
  });

  it('the checks catch a stale span, an unknown claim and an unmarked verdict (synthetic text)', () => {
    const result = committedResult(root, 'ccl-table1', 'cpu')!;
    const key = '"P1(CCQL) > P1(undefended)"';
    const verdict = result.claims.find((c) => c.statement.includes('P1(CCQL) > P1(undefended)'))!.columns!.find((c) => c.column === 'CIFAR-10')!.verdict;
    const other = CLAIM_VERDICTS.find((v) => v !== verdict)!;
    const stale = `CCL on CIFAR-10: <!-- verdict: ccl-table1 cpu ${key} CIFAR-10 -->**${other}**<!-- /verdict -->.`;
    const { text, problems } = fillVerdictSpans(stale, root);
    expect(problems).toEqual([]);
    expect(text).not.toBe(stale);
    expect(text).toContain(`-->${renderVerdict(result, key, 'CIFAR-10')}<!--`);
    expect(renderVerdict(result, key, 'CIFAR-10').startsWith(`**${verdict}**`)).toBe(true);
    expect(fillVerdictSpans('<!-- verdict: ccl-table1 cpu "no such claim" -->x<!-- /verdict -->', root).problems[0]).toMatch(
      /0 claims contain "no such claim"/,
    );
    expect(fillVerdictSpans('<!-- verdict: ccl-table9 cpu #1 -->x<!-- /verdict -->', root).problems[0]).toMatch(/no committed reproduction.json/);
    expect(unmarkedVerdicts('Intro.\n\nOn CIFAR-10 CCL holds against the undefended model.').map((v) => [v.line, v.word])).toEqual([[3, 'holds']]);
    expect(unmarkedVerdicts('A privacy claim is "not testable" when the attacks saturate; a held-out slice.')).toEqual([]);
    expect(unmarkedVerdicts(stale)).toEqual([]);
  });
});

// The root README's census of the papers' claims (`pnpm readme:results`, scripts/committed-results.ts)
// is the one the committed reproduction.json files give now.
describe('the claim census in the README is generated from the committed results', () => {
  it('the <!-- census --> block equals the census of the committed results (run pnpm readme:results when this fails)', async () => {
    const committed = committedResults(root);
    const block = /<!-- census -->\n([\s\S]*?)\n<!-- \/census -->/.exec(read('README.md'))?.[1];
    expect(block, 'README.md has no <!-- census --> block').toBeDefined();
    expect(block).toBe(censusBlock(committed, await earlierPlanDirs(committed)));
    // Not vacuous: the census counts the papers' claims of several reproductions.
    expect(committed.length).toBeGreaterThan(10);
    expect(block).toMatch(/^\| \*\*papers' claims\*\* \| \*\*\d+\*\* \|/m);
  }, 120_000);
});
