import { InvalidDatasetError } from '@mia/core';
import { tokenLogprobRecord, type TokenLogprobRecord } from './token-logprob-record';

const fail = (message: string) => new InvalidDatasetError(message);

/** Parses one line (1-based `line`) of a JSONL file; `undefined` for a blank line. */
function parseLine(text: string, line: number, source: string): TokenLogprobRecord | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidDatasetError(`${source}:${line}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
  return tokenLogprobRecord(value, `${source}:${line}`, fail);
}

/** Checks what holds across the records of a file: some records, unique ids, `member` on all or none. */
class RecordSet {
  readonly records: TokenLogprobRecord[] = [];
  private readonly lines = new Map<string, number>();
  private firstMember: { line: number; has: boolean } | undefined;

  constructor(private readonly source: string) {}

  add(record: TokenLogprobRecord, line: number): void {
    const seen = this.lines.get(record.id);
    if (seen !== undefined)
      throw new InvalidDatasetError(`${this.source}:${line}: "id" must be unique, got ${JSON.stringify(record.id)} again (first on line ${seen})`);
    this.lines.set(record.id, line);
    const has = record.member !== undefined;
    this.firstMember ??= { line, has };
    if (has !== this.firstMember.has)
      throw new InvalidDatasetError(
        `${this.source}:${line}: "member" must be given on every record or on none, got ${has ? 'one' : 'none'} here and ${this.firstMember.has ? 'one' : 'none'} on line ${this.firstMember.line}`,
      );
    this.records.push(record);
  }

  finish(): TokenLogprobRecord[] {
    if (this.records.length === 0) throw new InvalidDatasetError(`${this.source}: must hold at least one record (one JSON object per line), got none`);
    return this.records;
  }
}

/**
 * Parses per-token log-probabilities in JSONL: one {@link TokenLogprobRecord} per line,
 * `{"id", "member"?, "tokens"?, "logprobs", "mu"?, "sigma"?, "refLogprobs"?, "text"?, "zlibBytes"?}`.
 * Blank lines are skipped; ids are unique; `member` is on every record or on none.
 *
 * @param text - The file's text.
 * @param source - The file name, for error messages. @default 'jsonl'
 * @returns The records, in file order.
 * @throws InvalidDatasetError naming the line and the field, the expected and the actual value.
 * @see docs/guides/new-attacks.md (the layout and how to export it from a Hugging Face model).
 */
export function parseTokenLogprobsJsonl(text: string, source = 'jsonl'): TokenLogprobRecord[] {
  if (typeof text !== 'string') throw new InvalidDatasetError(`parseTokenLogprobsJsonl: text must be a string, got ${typeof text}`);
  const set = new RecordSet(source);
  text.split(/\r?\n/).forEach((line, i) => {
    const record = parseLine(line, i + 1, source);
    if (record !== undefined) set.add(record, i + 1);
  });
  return set.finish();
}

/**
 * {@link parseTokenLogprobsJsonl} over a stream of chunks (strings or UTF-8 bytes, e.g. a Node read
 * stream or `response.body`), for files too large to hold as one string.
 *
 * @param chunks - The file's content in order.
 * @param source - The file name, for error messages. @default 'jsonl'
 * @returns The records, in file order.
 * @throws InvalidDatasetError naming the line and the field, the expected and the actual value.
 */
export async function parseTokenLogprobsJsonlStream(chunks: AsyncIterable<string | Uint8Array>, source = 'jsonl'): Promise<TokenLogprobRecord[]> {
  const set = new RecordSet(source);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending = '';
  let line = 0;
  const take = (text: string) => {
    line += 1;
    const record = parseLine(text.endsWith('\r') ? text.slice(0, -1) : text, line, source);
    if (record !== undefined) set.add(record, line);
  };
  try {
    for await (const chunk of chunks) {
      pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = pending.indexOf('\n')) >= 0) {
        take(pending.slice(0, end));
        pending = pending.slice(end + 1);
      }
    }
    pending += decoder.decode();
  } catch (error) {
    if (InvalidDatasetError.isInstance(error)) throw error;
    throw new InvalidDatasetError(`${source}:${line + 1}: not valid UTF-8 text (${(error as Error).message})`, { cause: error });
  }
  take(pending);
  return set.finish();
}
