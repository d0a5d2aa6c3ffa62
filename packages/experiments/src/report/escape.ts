// One escaping rule per output format, for every string that comes from a config, a results file or a
// score file (labels, names, descriptions, notes, paths): such text is data, never markup or control codes.

/** C0 controls, DEL and C1 controls (ESC, CSI, BEL, backspace, carriage return…): what can drive a terminal. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** A control character as visible text: `\x1b`, `\x9b` (so `\x1b[31m` reads as itself and colours nothing). */
const visible = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * The text with every C0 control (U+0000–U+001F), DEL and C1 control (U+0080–U+009F) written as
 * `\xNN`, so an escape sequence (`ESC [ 31 m`, `ESC ] 0 ; title BEL`) shows as text and does nothing.
 * `keep` lists controls left as they are (a line break in a multi-line message).
 */
export function visibleControls(text: string, keep = ''): string {
  return text.replace(CONTROL, (c) => (keep.includes(c) ? c : visible(c)));
}

/**
 * Text for a terminal or a log: control characters (and so every ANSI/VT escape sequence, which
 * starts with ESC or the C1 CSI) written as visible `\xNN`; line breaks kept only with `multiline`.
 */
export function terminalText(text: string, options: { readonly multiline?: boolean } = {}): string {
  return visibleControls(String(text), options.multiline === true ? '\n' : '');
}

// CommonMark lets a backslash escape any ASCII punctuation; these are the ones that can start markup
// inside a line: emphasis, code, links and images, raw HTML, entities, table cells, strike-through, headings.
const MARKDOWN_INLINE = /[\\`*_[\]<>|&~#!]/g;

/**
 * Text inside one Markdown line (a table cell, a heading, a list item, alt text): control characters
 * visible, line breaks as spaces (a newline cannot split a table row or end a heading), and every
 * character that could start markup backslash-escaped, so `|` adds no column, `<script>` and
 * `<img onerror>` show as text and `[x](javascript:…)` is no link.
 */
export function escapeMarkdownInline(text: string): string {
  return visibleControls(String(text).replace(/\r\n|[\r\n\u2028\u2029]/g, ' ')).replace(MARKDOWN_INLINE, (c) => `\\${c}`);
}

/**
 * A paragraph of Markdown from data (a description, a note): {@link escapeMarkdownInline}, and a
 * leading block marker (`-`, `+`, `=`, `1.`, indentation) escaped, so the text cannot become a list,
 * a heading, a quote or a code block.
 */
export function escapeMarkdownParagraph(text: string): string {
  const inline = escapeMarkdownInline(text).trim();
  return inline.replace(/^([-+=]|\d+(?=[.)]))/, (m) => (/^\d/.test(m) ? `${m}\\` : `\\${m}`));
}

/** A Markdown table cell: {@link escapeMarkdownInline} (a `|` is escaped, a line break is a space). */
export const escapeMarkdownCell = escapeMarkdownInline;

/**
 * An inline Markdown code span holding `text` as it is (line breaks as spaces, control characters
 * visible): delimited by more backticks than any run inside it, so it cannot end early.
 */
export function markdownCode(text: string): string {
  const body = visibleControls(String(text).replace(/\r\n|[\r\n\u2028\u2029]/g, ' '));
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return longest === 0 ? `${ticks}${body}${ticks}` : `${ticks} ${body} ${ticks}`;
}

/**
 * A fenced Markdown code block holding `lines` as they are (control characters visible): its fence
 * is longer than any run of backticks in them, so no line can close it early.
 */
export function markdownCodeBlock(lines: readonly string[], language = ''): string[] {
  const body = lines.map((l) => visibleControls(l));
  const longest = Math.max(0, ...body.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((run) => run.length))));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${language}`, ...body, fence];
}

/**
 * Text for HTML, as element content or a quoted attribute value: `&`, `<`, `>`, `"` and `'` as
 * entities, control characters visible (`\x1b`; the C0 ones are not even allowed in HTML text).
 */
export function escapeHtml(text: string): string {
  return visibleControls(String(text), '\n\t')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * A CSV field: numbers as JavaScript prints them (`Infinity`, empty for NaN); text with control
 * characters visible (`\x1b`), a leading `'` when a spreadsheet would run it as a formula (it starts
 * with `=`, `+`, `-` or `@`), and quoted when it holds `,` or `"`.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return Number.isNaN(value) ? '' : String(value);
  const shown = visibleControls(value);
  const text = /^[=+\-@]/.test(shown) ? `'${shown}` : shown;
  return /[",]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
