import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { writeGuideFixtures } from './guide-fixtures';
import { markdownCodeBlocks, RUNNABLE } from './markdown-code-blocks';

// Runs every ```ts / ```js block of docs/guides/*.md, of the root README and of the package READMEs
// listed below as its own script, as a user would paste it into a project that installed
// `@tensorflow/tfjs` and the `@mia` packages. Any other block must say why it is not run:
// `<!-- not-run: reason -->` on the line before the fence; a block marked `<!-- continues -->`
// runs together with the runnable block(s) before it in the same file, as one script.
// The scripts live in a temporary folder inside examples/browser-ccl, whose dependencies are that
// user project (`@tensorflow/tfjs` and every public @mia package; workspace packages resolve to
// their sources through `--conditions=@mia/source`); the folder also holds the fixture files the
// guides read (test/guide-fixtures.ts) and is the scripts' working directory.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const host = join(root, 'examples', 'browser-ccl');
const files = [
  'README.md',
  'packages/core/README.md',
  ...readdirSync(join(root, 'docs', 'guides'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join('docs', 'guides', f)),
];
const run = promisify(execFile);
const work = mkdtempSync(join(host, '.guide-run-'));
const cacheDir = mkdtempSync(join(work, 'cache-'));
writeGuideFixtures(work);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** One script: a block, or a block and the `<!-- continues -->` blocks after it (run once, together). */
interface Script {
  readonly file: string;
  readonly lines: number[];
  code: string;
}
const scripts: Script[] = [];
const notRun: string[] = [];
const unmarked: string[] = [];
for (const file of files) {
  let current: Script | undefined;
  for (const block of markdownCodeBlocks(readFileSync(join(root, file), 'utf8'), file)) {
    const where = `${file}:${block.line}`;
    if (block.notRun !== undefined) notRun.push(`${where} (${block.lang || 'no language'}): ${block.notRun}`);
    else if (!RUNNABLE.has(block.lang))
      unmarked.push(`${where}: a \`\`\`${block.lang || '(no language)'} block; mark it <!-- not-run: reason --> or make it ts/js`);
    else if (block.continues && current !== undefined) {
      current.lines.push(block.line);
      current.code += `\n${block.code}`;
    } else {
      if (block.continues) unmarked.push(`${where}: <!-- continues --> but no runnable block before it`);
      current = { file, lines: [block.line], code: block.code };
      scripts.push(current);
    }
  }
}

describe('guide code', () => {
  afterAll(() => {
    const blocks = scripts.reduce((n, s) => n + s.lines.length, 0);
    console.log(`guides: ${blocks} code blocks run (as ${scripts.length} scripts), ${notRun.length} marked not-run:\n  ${notRun.join('\n  ')}`);
  });

  it('every block is either run or marked not-run with a reason', () => {
    expect(unmarked).toEqual([]);
    expect(scripts.length).toBeGreaterThan(0);
  });

  it.each(scripts.map((s) => [`${s.file}:${s.lines.join('+')}`, s] as const))('%s runs', async (name, script) => {
    const path = join(work, `${script.file.replace(/[/\\.]/g, '_')}_L${script.lines.join('_')}.ts`);
    writeFileSync(path, `${script.code}\n`);
    try {
      const { stdout } = await run(process.execPath, ['--conditions=@mia/source', '--import', 'tsx', path], {
        cwd: work,
        env: { ...process.env, MIA_CACHE_DIR: cacheDir, NO_COLOR: '1' },
        timeout: 110_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      process.stdout.write(`--- ${name}\n${stdout}`);
    } catch (error) {
      const e = error as { code?: number; signal?: string; stdout?: string; stderr?: string };
      throw new Error(`${name} (run as ${relative(root, path)}) failed with exit ${e.code ?? e.signal}:\n${e.stderr ?? ''}\n${e.stdout ?? ''}`);
    }
  });
});
