import { describe, expect, it } from 'vitest';
import type { ExperimentResults } from '../run/results';
import type { RowRecords } from '../run/row-exposure';
import { fakeResults, fakeRow } from '../test-utils/reproduction-fixtures';
import { csvCell, escapeHtml, escapeMarkdownCell, escapeMarkdownParagraph, markdownCode, markdownCodeBlock, terminalText } from './escape';
import { exposureCsv } from './exposure-csv';
import { htmlReport } from './html-report';
import { markdownReport } from './markdown-report';

// Labels a config from a pull request could carry: markup, table breakers, terminal escape sequences.
const SCRIPT = '<script>alert(1)</script>';
const IMG = '<img src=x onerror=alert(1)>';
const PIPE = 'a | b | c';
const NEWLINE = 'first\n# injected heading';
const ANSI = '\u001b[31mred\u001b[0m\u001b]0;retitled\u0007';
const LINK = '[click](javascript:alert(1))';

/** Splits a Markdown table line into cells on the `|` that are not backslash-escaped. */
const cells = (line: string) => line.split(/(?<!\\)\|/).slice(1, -1);

function hostileResults(): ExperimentResults {
  const rows = [SCRIPT, IMG, PIPE, NEWLINE, ANSI, LINK].map((label, i) => ({
    ...fakeRow(label, { train: 0.9, test: 0.6, adv: 0.1 + i / 100 }),
    defense: i === 0 ? 'none' : 'ccl',
    attacks: [{ ...fakeRow(label, { train: 0.9, test: 0.6 }).attacks[0]!, attack: `loss ${PIPE} ${ANSI}` }],
  }));
  const results = fakeResults(rows);
  return {
    ...results,
    config: {
      name: `run ${SCRIPT}`,
      description: `${SCRIPT}\n\n# not a heading\n- not a list ${IMG} ${ANSI}`,
      attacks: [{ name: 'loss', label: `loss ${PIPE} ${ANSI}`, params: {} }],
      model: { name: 'mlp', options: {} },
      training: { epochs: 1 },
      scale: 'smoke',
      seed: 0,
    } as unknown as ExperimentResults['config'],
    dataset: { ...results.dataset, name: `data ${IMG}`, description: `desc ${NEWLINE}` },
    notes: [`note ${SCRIPT} ${NEWLINE}`],
    warnings: [`warning ${ANSI} ${PIPE}`],
    command: 'mia run "x```\n# escaped the fence"',
  };
}

describe('escaping config text per output format', () => {
  it('report.md: no markup, no extra table column, no split row, no escape code from any label, name, description or note', () => {
    const md = markdownReport(hostileResults());
    expect(md).not.toMatch(/(?<!\\)<(script|img)/i); // `\<script` renders as text
    expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/); // no control character but line breaks
    expect(md).not.toMatch(/(?<!\\)\]\(javascript:/); // no link
    const lines = md.split('\n');
    // A label's newline split no row and started no heading; the description made no heading or list.
    expect(lines.filter((l) => /^#+ (injected|not a heading)|^- not a list|^# escaped the fence/.test(l))).toEqual([]);
    // Every line of a table has as many cells as its header.
    const tables = md.split(/\n\n/).filter((block) => block.startsWith('|'));
    expect(tables.length).toBeGreaterThanOrEqual(7); // the main table and one per row
    for (const table of tables) {
      const [header, ...body] = table.split('\n');
      for (const line of body) expect(cells(line)).toHaveLength(cells(header!).length);
    }
    // The main table has one line per row, each label shown as text.
    const main = tables.find((t) => t.startsWith('| defense |'))!.split('\n');
    expect(main).toHaveLength(2 + 6);
    expect(main[2]).toMatch(/^\| \\<script\\>alert\(1\)\\<\/script\\> \|/);
    expect(main[4]).toMatch(/^\| a \\\| b \\\| c \|/);
    expect(main[5]).toMatch(/^\| first \\# injected heading \|/);
    // Shown as `\x1b[31m…` once rendered (the backslash of `\x1b` and the `[` escaped in the source).
    expect(main[6]!.startsWith(String.raw`| \\x1b\[31mred\\x1b\[0m\\x1b\]0;retitled\\x07 |`)).toBe(true);
    // The command's fence is longer than the backticks in it, so it cannot be closed early.
    expect(md).toContain('````bash\nmia run "x```\\x0a# escaped the fence"');
  });

  it('report.html: every label as text, no control character, figures included', async () => {
    const html = await htmlReport(hostileResults());
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(html).toContain('<h3>&lt;script&gt;alert(1)&lt;/script&gt;</h3>');
    expect(html).toContain('<h3>\\x1b[31mred\\x1b[0m\\x1b]0;retitled\\x07</h3>');
    expect(html).toMatch(/<figure id="privacy-utility"[^>]*>.*?<svg/s);
  });

  it('exposure.csv: labels keep to one field of one line, escape codes shown, formulas defused', () => {
    const records = (row: string): RowRecords => ({
      row,
      attacks: ['loss'],
      members: {
        index: [1],
        label: Int32Array.of(0),
        loss: Float64Array.of(0.1),
        scores: [Float64Array.of(0.9)],
        rank: Int32Array.of(1),
        fprToFlag: Float64Array.of(0),
      },
      nonMembers: { index: [2], label: Int32Array.of(1), loss: Float64Array.of(1), scores: [Float64Array.of(0.1)] },
    });
    const csv = exposureCsv([records(NEWLINE), records(ANSI), records('=HYPERLINK("http://x")')]);
    const lines = csv.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 6); // header + a member and a non-member per row: no label split a line
    expect(csv).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(lines[1]).toBe('first\\x0a# injected heading,member,1,0,0.1,0.9,1,0');
    expect(lines[3]).toBe('\\x1b[31mred\\x1b[0m\\x1b]0;retitled\\x07,member,1,0,0.1,0.9,1,0');
    expect(lines[5]).toBe(`"'=HYPERLINK(""http://x"")",member,1,0,0.1,0.9,1,0`);
  });

  it('terminalText: escape sequences (ESC, C1 CSI, BEL, backspace, carriage return) shown as text; line breaks only when multi-line', () => {
    expect(terminalText(ANSI)).toBe('\\x1b[31mred\\x1b[0m\\x1b]0;retitled\\x07');
    expect(terminalText('a\u009b2Jb\bc\rd\u007f')).toBe('a\\x9b2Jb\\x08c\\x0dd\\x7f');
    expect(terminalText('one\ntwo')).toBe('one\\x0atwo');
    expect(terminalText('one\ntwo\u001b', { multiline: true })).toBe('one\ntwo\\x1b');
    expect(terminalText('CCL α = 0.5 ± 0.1 — 日本語')).toBe('CCL α = 0.5 ± 0.1 — 日本語');
  });

  it('the per-format rules on their own', () => {
    expect(escapeMarkdownCell('a|b\nc')).toBe('a\\|b c');
    expect(escapeMarkdownCell('*bold* _it_ `code` ~~s~~ &amp;')).toBe('\\*bold\\* \\_it\\_ \\`code\\` \\~\\~s\\~\\~ \\&amp;');
    expect(['- item', '+ item', '1. item', '2) item', '  # h', '> quote'].map(escapeMarkdownParagraph)).toEqual([
      '\\- item',
      '\\+ item',
      '1\\. item',
      '2\\) item',
      '\\# h',
      '\\> quote',
    ]);
    expect(markdownCode('smoke')).toBe('`smoke`');
    expect(markdownCode('a`b')).toBe('`` a`b ``');
    expect(markdownCodeBlock(['x ```` y'])).toEqual(['`````', 'x ```` y', '`````']);
    expect(escapeHtml(`"'<>&\u001b`)).toBe('&quot;&#39;&lt;&gt;&amp;\\x1b');
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });
});
