import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const script = join(root, 'scripts', 'check-links.mjs');
const checkLinks = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8' });

// Fixtures live inside the repository: links that leave it are reported as broken.
const dir = mkdtempSync(join(root, 'test', '.links-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const rel = relative(root, dir);

describe('scripts/check-links.mjs', () => {
  it("passes on the repository's README, docs, package and example READMEs", () => {
    const r = checkLinks('--quiet');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^check-links: \d+ files, \d+ links, \d+ external \(not fetched\), 0 broken$/m);
  });

  it('reports each broken relative link and anchor with file:line, and lists external links', () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'b.md'), '# Title\n\n## Read the `metrics` (TPR@FPR)!\n\n## Read the `metrics` (TPR@FPR)!\n\n<a id="custom"></a>\n');
    writeFileSync(
      join(dir, 'a.md'),
      [
        '# A', // 1
        '[ok](sub/b.md) [ok dir](sub/) [ok anchor](sub/b.md#read-the-metrics-tprfpr) [repeat](sub/b.md#read-the-metrics-tprfpr-1)', // 2
        '[id](sub/b.md#custom) [self](#a) ![img](sub/b.md)', // 3
        '[missing](sub/nope.md)', // 4
        '[bad anchor](sub/b.md#nope) [bad self](#b)', // 5
        '```md',
        '[in code](not/checked.md)',
        '```', // 6-8
        '`[inline](not/checked.md)` [web](https://example.org/x?y=1#z) <https://example.com>', // 9
        '[ref]: ../../../outside.md', // 10
        '[malformed](https://exa mple.org) [nodomain](http://intranet/x)', // 11
      ].join('\n'),
    );
    const r = checkLinks(join(dir, 'a.md'));
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      `${rel}/a.md:4: broken link: sub/nope.md: no such file or folder (${rel}/sub/nope.md)`,
      `${rel}/a.md:5: broken link: sub/b.md#nope: no heading or id "nope" in ${rel}/sub/b.md`,
      `${rel}/a.md:5: broken link: #b: no heading or id "b" in ${rel}/a.md`,
      `${rel}/a.md:10: broken link: ../../../outside.md points outside the repository`,
      `${rel}/a.md:11: broken link: malformed URL http://intranet/x (no domain)`,
    ]);
    // `[malformed](https://exa mple.org)` is not a Markdown link at all (a space in the target).
    expect(r.stdout).toContain('external links (syntax checked only):\n  http://intranet/x\n  https://example.com\n  https://example.org/x?y=1#z\n');
    expect(r.stdout).toContain('check-links: 1 files, 14 links, 3 external (not fetched), 5 broken');
  });
});
