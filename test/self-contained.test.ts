import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findLeaks, leaksIn, protocolIndex, selfContainedFiles, type ProtocolIndex } from './self-contained';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

// The checker's own fixtures live inside the repository (so that "leaves the repository" means
// what it says) in a temporary folder the scan of the real files never sees.
const dir = mkdtempSync(join(root, 'test', '.self-contained-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const rel = relative(root, dir);
const index: ProtocolIndex = { sections: new Set(['1', '1.8', '4', '4.1']), ambiguities: new Set(['A1', 'A11']) };
const problems = (name: string, text: string) => leaksIn(root, join(dir, name), text, index).map((l) => `${l.line}: ${l.problem}`);

// Built from parts so that this file itself never contains the strings it forbids.
const doc = (name: string) => `${name}.md`;
const workspace = ['..', 'shared'].join('/');

describe('the repository stands alone', () => {
  it('README, docs, packages, examples (sources, scripts, results), bench and scripts point only inside the repository', () => {
    const files = selfContainedFiles(root);
    // The scan covers what the rule is about, not an empty or partial list.
    for (const f of [
      'README.md',
      'docs/protocol.md',
      'docs/protocol/4-defenses.md',
      'packages/core/README.md',
      'packages/core/src/index.ts',
      'bench/README.md',
      'scripts/check-links.mjs',
    ]) {
      expect(files).toContain(join(root, f));
    }
    expect(files.some((f) => f.includes(`${join('examples', 'ccl', 'results')}`) && f.endsWith('report.html'))).toBe(true);
    expect(files.some((f) => f.includes(join('docs', 'api')) || f.includes('node_modules'))).toBe(false);
    expect(findLeaks(root, files)).toEqual([]);
  });

  it('the algorithm reference defines every section 0–7 and the ambiguities A1–A37 that citations use', () => {
    const { sections, ambiguities } = protocolIndex(root);
    for (const s of ['0', '1.1', '1.8', '2.1', '2.7', '3.0', '3.11', '4.1', '4.17', '5', '6', '7']) expect(sections.has(s), `§${s}`).toBe(true);
    expect([...ambiguities].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))).toEqual(Array.from({ length: 37 }, (_, i) => `A${i + 1}`));
  });
});

describe('the self-contained checker (test/self-contained.ts)', () => {
  it('flags paths into the workspace, local paper copies and documents the repository does not have', () => {
    const text = [
      `see ${workspace}/${doc('PROTOCOL')} §2.1`, // 1
      `copied from shared/anchors/pytorch/models_torch.py`, // 2
      `@see papers/${doc('ccl')} Table 1`, // 3
      `as in ${doc('PERFORMANCE')} root cause 2; ${doc('DESIGN')} "Data"`, // 4
      `resolve(repoRoot, '${workspace}/reference/kernels.js')`, // 5
    ].join('\n');
    // Sorted by line; within a line, in rule order (workspace paths, then paper copies, then documents).
    expect(problems('a.ts', text)).toEqual([
      `1: a path into the workspace next to the repository: "${workspace}/${doc('PROTOCOL')}"`,
      '2: a path into the team workspace: "shared/anchors/pytorch/models_torch.py"',
      `3: a paper's local copy (cite its title or arXiv id): "papers/${doc('ccl')}"`,
      `4: a document that is not in the repository: "${doc('PERFORMANCE')}"`,
      `4: a document that is not in the repository: "${doc('DESIGN')}"`,
      `5: a path into the workspace next to the repository: "${workspace}/reference/kernels.js"`,
    ]);
  });

  it('flags Markdown and HTML links that leave the repository or point to a missing file, and skips code', () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'here.md'), '# Here\n');
    const text = [
      '[ok](sub/here.md#here) [web](https://arxiv.org/abs/2402.05453) [self](#x) [mail](mailto:a@b.org)', // 1
      '[out](../../../../outside.md)', // 2
      '[gone](sub/nope.md)', // 3
      '[ref]: ../../../../elsewhere/file.md', // 4
      '<a href="sub/missing.html">x</a> <img src="sub/here.md">', // 5
      '```md',
      '[in code](../../../../../nowhere.md)',
      '```', // 6-8
      '`[inline](gone.md)`', // 9
    ].join('\n');
    expect(problems('a.md', text)).toEqual([
      '2: link ../../../../outside.md leaves the repository',
      `3: link sub/nope.md points to a missing file (${rel}/sub/nope.md)`,
      '4: link ../../../../elsewhere/file.md leaves the repository',
      `5: link sub/missing.html points to a missing file (${rel}/sub/missing.html)`,
    ]);
    // HTML pages: a leading "/" is the page's folder (Vite), so /sub/here.md exists and /main.ts does not.
    expect(problems('page.html', '<script src="/sub/here.md"></script>\n<script src="/main.ts"></script>')).toEqual([
      `2: link /main.ts points to a missing file (${rel}/main.ts)`,
    ]);
  });

  it('flags citations of sections and ambiguities the algorithm reference does not define', () => {
    const text = 'docs/protocol.md §4.1, §4.99 and docs/protocol.md A11\n@see docs/protocol.md §9 A40; docs/protocol.md §1.8 A1';
    expect(problems('c.ts', text)).toEqual(['1: docs/protocol.md has no §4.99', '2: docs/protocol.md has no §9', '2: docs/protocol.md has no A40']);
  });

  it('accepts the in-repository forms: docs/protocol.md §N, lower-case file names, arXiv ids', () => {
    expect(problems('ok.ts', '@see docs/protocol.md §4.1; docs/performance.md root cause 2; CCL (arXiv:2402.05453) Table 1; mounted at /mnt/mia')).toEqual([]);
  });

  it('reports through findLeaks as file:line for a file on disk', () => {
    const file = join(dir, 'bad.md');
    writeFileSync(file, `# Bad\n\nSee ${doc('STYLE')}.\n`);
    expect(findLeaks(root, [file])).toEqual([`${rel}/bad.md:3: a document that is not in the repository: "${doc('STYLE')}"`]);
  });
});
