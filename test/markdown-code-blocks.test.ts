import { describe, expect, it } from 'vitest';
import { markdownCodeBlocks } from './markdown-code-blocks';

describe('markdownCodeBlocks', () => {
  it('finds fenced blocks with their language, line and markers', () => {
    const md = [
      '# T',
      '',
      '```ts',
      'const a = 1;',
      '```',
      '', // block at line 3
      '<!-- not-run: shell commands -->',
      '',
      '```bash',
      'pnpm test',
      '```', // line 9
      '<!-- continues -->',
      '~~~~js',
      'console.log(a);',
      '```',
      '~~~~', // line 13, inner ``` kept
      '```',
      'plain',
      '```', // line 17, no language
    ].join('\n');
    expect(markdownCodeBlocks(md, 'x.md')).toEqual([
      { line: 3, lang: 'ts', code: 'const a = 1;', continues: false },
      { line: 9, lang: 'bash', code: 'pnpm test', notRun: 'shell commands', continues: false },
      { line: 13, lang: 'js', code: 'console.log(a);\n```', continues: true },
      { line: 17, lang: '', code: 'plain', continues: false },
    ]);
  });

  it('reports an unclosed fence and a not-run marker without a reason', () => {
    expect(() => markdownCodeBlocks('a\n```ts\nx', 'g.md')).toThrow('markdownCodeBlocks: g.md:2: code fence ``` is never closed');
    expect(() => markdownCodeBlocks('<!-- not-run -->\n```ts\nx\n```', 'g.md')).toThrow('g.md:1: a not-run marker needs a reason');
  });
});
