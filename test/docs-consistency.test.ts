import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES } from '../packages/experiments/src/train/backend-choice';
import { CLAIM_VERDICTS } from '../packages/experiments/src/reproduce/types';

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

  it("the README's test-time figures each say which backend they are for", () => {
    // Sentences and list items, each on one line.
    const sentences = read('README.md')
      .split(/\.\s|\n- /)
      .map((s) => s.replace(/\s+/g, ' '))
      .filter((s) => /pnpm test|runs the tests/.test(s) && /\d+\s*(min|minutes)\b/.test(s));
    expect(sentences.length).toBeGreaterThan(0);
    for (const s of sentences) {
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

  it("the README's own-model snippet is plain JavaScript (test:packaging runs it as .mjs) and prints its result", () => {
    const section = read('README.md')
      .split(/^## /m)
      .find((s) => s.startsWith('Add one defense to your own tfjs model'));
    const code = section === undefined ? undefined : /```ts\n([\s\S]*?)\n```/.exec(section)?.[1];
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

  it('no install path assumes the name of the clone', () => {
    for (const file of ['README.md', ...guides]) expect(read(file), file).not.toMatch(/\.\.\/mia\//);
  });
});
