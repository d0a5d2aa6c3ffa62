/** A fenced code block of a Markdown file. */
export interface CodeBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** Info string's first word, lower-cased ('' when none). */
  readonly lang: string;
  readonly code: string;
  /** Reason of a `<!-- not-run: reason -->` marker on the last non-blank line before the fence. */
  readonly notRun?: string;
  /** `<!-- continues -->` before the fence: the block runs together with the runnable block before it, as one script. */
  readonly continues: boolean;
}

/** Languages whose blocks the guide runner executes (with tsx, so JS and TS alike). */
export const RUNNABLE = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);

const NOT_RUN = /^<!--\s*not-run:\s*(.+?)\s*-->$/;
const CONTINUES = /^<!--\s*continues\s*-->$/;

/**
 * Extracts the fenced code blocks (``` or ~~~, three or more) of a Markdown text with the
 * markers written just before each fence: `<!-- not-run: reason -->` (the block is deliberately
 * not executed: shell, output, another language, a fragment) or `<!-- continues -->` (the block
 * continues the previous runnable block of the same file).
 *
 * @param text - The Markdown source.
 * @param source - A file name for error messages.
 * @throws Error when a fence is never closed or a `not-run` marker has no reason.
 */
export function markdownCodeBlocks(text: string, source: string): CodeBlock[] {
  const lines = text.split(/\r?\n/);
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const indent = open[1]!.length;
    let end = i + 1;
    while (end < lines.length && !new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(lines[end]!)) end += 1;
    if (end >= lines.length) throw new Error(`markdownCodeBlocks: ${source}:${i + 1}: code fence ${fence} is never closed`);
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before -= 1;
    const marker = before >= 0 ? lines[before]!.trim() : '';
    if (/^<!--\s*not-run\b/.test(marker) && !NOT_RUN.test(marker)) {
      throw new Error(`markdownCodeBlocks: ${source}:${before + 1}: a not-run marker needs a reason, like <!-- not-run: shell commands -->, got ${marker}`);
    }
    const notRun = NOT_RUN.exec(marker)?.[1];
    const code = lines
      .slice(i + 1, end)
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join('\n');
    blocks.push({ line: i + 1, lang: open[3]!.toLowerCase(), code, ...(notRun === undefined ? {} : { notRun }), continues: CONTINUES.test(marker) });
    i = end;
  }
  return blocks;
}
