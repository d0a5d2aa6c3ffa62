// Which parser reads a scores file: never the file name alone. The content is sniffed, and a name
// or a --format that contradicts it is an error that says what the content looks like.
import { extname } from 'node:path';
import { InvalidArgumentError } from '@mia/core';

/** The formats of a scores file. */
export const SCORE_FILE_FORMATS = ['json', 'csv', 'npy'] as const;
/** A format of a scores file. */
export type ScoreFileFormat = (typeof SCORE_FILE_FORMATS)[number];

const EXTENSIONS: Readonly<Record<string, ScoreFileFormat>> = { '.json': 'json', '.csv': 'csv', '.tsv': 'csv', '.npy': 'npy' };
const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];

/** What the first bytes of a file look like: a format, or nothing recognisable, and why. */
export interface SniffedFormat {
  readonly format: ScoreFileFormat | undefined;
  /** Why, for messages: `its first line is "label,member,loss"`, `it starts with "{"`. */
  readonly evidence: string;
}

/**
 * Sniffs the format from the first bytes (at least the first line, when there is one): the .npy
 * magic string; JSON when the first character other than a byte-order mark or white space is `{`
 * or `[`; CSV when the first line is text; nothing when the head is empty or binary.
 */
export function sniffScoreFormat(head: Uint8Array): SniffedFormat {
  if (head.length === 0) return { format: undefined, evidence: 'it is empty' };
  if (NPY_MAGIC.every((b, i) => head[i] === b)) return { format: 'npy', evidence: 'it starts with the \\x93NUMPY magic string of a .npy array' };
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, 4096)).replace(/^\uFEFF/, '');
  const first = text.trimStart()[0];
  if (first === '{' || first === '[') return { format: 'json', evidence: `it starts with "${first}"` };
  const line = text.trimStart().split(/\r?\n/)[0] ?? '';
  // Control characters other than tab, or undecodable bytes: not a text line.
  if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(line))
    return { format: undefined, evidence: 'it starts with binary data that is neither a .npy array nor text' };
  const shown = line.length > 60 ? `${line.slice(0, 57)}...` : line;
  return { format: 'csv', evidence: `its first line is ${JSON.stringify(shown)}` };
}

/**
 * Whether the first bytes are per-token log-probabilities of a language model in JSONL
 * (`parseTokenLogprobsJsonl`'s layout, one record a line): the first line that is not blank is a JSON
 * object with a `"logprobs"` field. A long first line may end beyond `head`: then the field's key
 * within the head is enough (a JSON score file has no `"logprobs"` key; the parser checks the rest).
 */
export function looksLikeTokenLogprobs(head: Uint8Array): boolean {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head).replace(/^\uFEFF/, '');
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  if (!line.trimStart().startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'logprobs' in value;
  } catch {
    // A first line cut by the end of the head, or not JSON: its "logprobs" key (at the top level or not) decides.
    return /"logprobs"\s*:/.test(line);
  }
}

/** Options of {@link chooseScoreFormat}. */
export interface ChooseScoreFormatOptions {
  /** `--format`, when given. */
  readonly format?: string;
  /** The command, for messages: `attack`, `gate`. */
  readonly command: string;
  /** What the file is to the command, for messages: `--scores`, `scores file`. */
  readonly flag: string;
}

/**
 * The format to parse a scores file with: `--format` when given, else the extension (.json, .csv,
 * .tsv, .npy), else the sniffed content; in each case the content must not say otherwise.
 * @returns The format, and a note to print when it was sniffed (no known extension).
 * @throws InvalidArgumentError on a bad --format, an extension or --format that the content
 *   contradicts, or content that is empty or of no known format without a --format.
 */
export function chooseScoreFormat(path: string, sniffed: SniffedFormat, options: ChooseScoreFormatOptions): { format: ScoreFileFormat; note?: string } {
  const { command, flag } = options;
  const name = `${command}: ${flag} ${path}`;
  const upper = (f: string) => f.toUpperCase();
  if (sniffed.evidence === 'it is empty') throw new InvalidArgumentError(`${name} is empty`);
  if (options.format !== undefined) {
    const format = options.format.toLowerCase();
    if (!(SCORE_FILE_FORMATS as readonly string[]).includes(format))
      throw new InvalidArgumentError(`${command}: --format must be json, csv or npy, got ${JSON.stringify(options.format)}`);
    if (sniffed.format !== undefined && sniffed.format !== format)
      throw new InvalidArgumentError(`${name} holds ${upper(sniffed.format)} (${sniffed.evidence}), not ${upper(format)} as --format ${format} says`);
    return { format: format as ScoreFileFormat };
  }
  const extension = extname(path).toLowerCase();
  const byName = EXTENSIONS[extension];
  if (byName !== undefined) {
    if (sniffed.format !== undefined && sniffed.format !== byName)
      throw new InvalidArgumentError(
        `${name} holds ${upper(sniffed.format)} (${sniffed.evidence}), not ${upper(byName)} as its ${extension} extension says: pass --format ${sniffed.format} or rename it`,
      );
    return { format: byName };
  }
  if (sniffed.format === undefined)
    throw new InvalidArgumentError(`${command}: cannot tell the format of ${flag} ${path}: ${sniffed.evidence}; pass --format json, csv or npy`);
  return {
    format: sniffed.format,
    note: `reading ${path} as ${upper(sniffed.format)}, detected from its content (${sniffed.evidence}${extension === '' ? '' : `; ${extension} is not .json, .csv, .tsv or .npy`}); --format ${sniffed.format} says so without detection`,
  };
}
