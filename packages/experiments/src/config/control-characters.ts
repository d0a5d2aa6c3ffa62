import type { OptionIssue } from '@mia/core';

/** C0 controls, DEL and C1 controls: the characters that make up terminal escape sequences. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, except tab, line feed and carriage return (allowed in free text such as a description). */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

const NAMES: Record<number, string> = { 0: 'NUL', 7: 'BEL', 8: 'BS', 9: 'TAB', 10: 'LF', 13: 'CR', 27: 'ESC', 127: 'DEL', 0x9b: 'CSI' };

/** `U+001B (ESC)`: a code point as it is named in messages. */
export function codePointName(char: string): string {
  const code = char.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return NAMES[code] === undefined ? hex : `${hex} (${NAMES[code]})`;
}

/** A string for a message with every control character written as `\uXXXX` (the message itself must not carry them). */
const shown = (text: string) =>
  `"${text.replace(/[\u0000-\u001f\u007f-\u009f"\\]/g, (c) => (c === '"' || c === '\\' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`;

function check(issues: OptionIssue[], path: string, value: unknown, pattern: RegExp, what: string): void {
  if (typeof value !== 'string') return;
  const m = pattern.exec(value);
  if (m === null) return;
  issues.push({
    path,
    expected: `${what} without control characters (they would reach terminals, logs and reports as escape codes)`,
    got: `${shown(value)}, with ${codePointName(m[0])} at index ${m.index}`,
  });
}

const field = (value: unknown, key: string): unknown => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined);
const entries = (value: unknown): Array<[string, unknown]> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];

/**
 * The names and labels of a config (as written) that hold control characters (C0, DEL, C1 — the
 * stuff of terminal escape sequences): the run's `name`, the dataset and model names, each
 * defense's `name`, `label`, grid keys and string grid values (they become labels), each attack's
 * name and label, and `paper`'s source and row labels; the `description` may hold tabs and line
 * breaks but no other control character. Each issue names the field and the character's code point.
 */
export function controlCharacterIssues(input: unknown): OptionIssue[] {
  const issues: OptionIssue[] = [];
  check(issues, 'name', field(input, 'name'), CONTROL, 'a name');
  check(issues, 'description', field(input, 'description'), CONTROL_IN_TEXT, 'text (tabs and line breaks allowed)');
  check(issues, 'dataset.name', field(field(input, 'dataset'), 'name'), CONTROL, 'a name');
  check(issues, 'model.name', field(field(input, 'model'), 'name'), CONTROL, 'a name');
  const defenses = field(input, 'defenses');
  if (Array.isArray(defenses))
    defenses.forEach((d, i) => {
      check(issues, `defenses[${i}].name`, field(d, 'name'), CONTROL, 'a name');
      check(issues, `defenses[${i}].label`, field(d, 'label'), CONTROL, 'a label');
      for (const [key, values] of entries(field(d, 'grid'))) {
        check(issues, `defenses[${i}].grid`, key, CONTROL, 'a grid key (it becomes part of a label)');
        if (Array.isArray(values))
          values.forEach((v, j) => check(issues, `defenses[${i}].grid.${key}[${j}]`, v, CONTROL, 'a grid value (it becomes part of a label)'));
      }
    });
  const attacks = field(input, 'attacks');
  if (Array.isArray(attacks))
    attacks.forEach((a, i) => {
      if (typeof a === 'string') check(issues, `attacks[${i}]`, a, CONTROL, 'an attack name');
      check(issues, `attacks[${i}].name`, field(a, 'name'), CONTROL, 'an attack name');
      check(issues, `attacks[${i}].label`, field(a, 'label'), CONTROL, 'a label');
    });
  const paper = field(input, 'paper');
  check(issues, 'paper.source', field(paper, 'source'), CONTROL_IN_TEXT, 'text (tabs and line breaks allowed)');
  for (const [label] of entries(field(paper, 'values'))) check(issues, 'paper.values', label, CONTROL, 'a row label');
  return issues;
}
