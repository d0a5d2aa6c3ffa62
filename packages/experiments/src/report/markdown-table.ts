import { escapeMarkdownCell } from './escape';

/**
 * A Markdown (GFM) table whose every cell is text: escaped by {@link escapeMarkdownCell}, so a `|`
 * adds no column, a line break splits no row and `<script>` stays text.
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(escapeMarkdownCell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
