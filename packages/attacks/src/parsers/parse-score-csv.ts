import { InvalidDatasetError } from '@mia/core';
import { ScoreCsvReader } from './score-csv-reader';
import type { ScoreTable } from './score-table';

/**
 * Parses a CSV score file with a header row. Columns: `member` (or `is_member`; 0/1 or
 * true/false); either `loss`, `score`, `logit_0 … logit_{C−1}` or `prob_0 … prob_{C−1}`; and
 * `label`, the true class, which a loss or score file may leave out (the loss and score attacks do
 * not use it). Other columns are ignored. Separator `,` (or `;`/tab, detected from the header);
 * blank lines are skipped. For a file too large to hold as one string, use {@link parseScoreCsvStream}.
 *
 * @param text - The file contents.
 * @param source - A file name for error messages. @default 'csv'
 * @returns The validated {@link ScoreTable}.
 * @throws InvalidDatasetError on a missing header column, a row with the wrong number of fields, or a
 *   value that is not what its column holds, naming the line and the column
 *   (`line 6, column member: must be 0 or 1 (or true/false), got "x"`).
 */
export function parseScoreCsv(text: string, source = 'csv'): ScoreTable {
  const fn = `parseScoreCsv(${source})`;
  if (typeof text !== 'string') throw new InvalidDatasetError(`${fn}: expected text, got ${typeof text}`);
  const reader = new ScoreCsvReader(fn);
  reader.push(text);
  return reader.finish();
}

/**
 * {@link parseScoreCsv} of a stream: the text is read piece by piece (UTF-8 bytes or strings, e.g. a
 * `fs.createReadStream`) into typed columns, so memory holds the columns (13 bytes per row of a
 * loss file with labels), never the whole text or one object per row.
 *
 * @param chunks - The file's contents in order, as `Uint8Array`s (UTF-8) or strings.
 * @param source - A file name for error messages. @default 'csv'
 * @returns The validated {@link ScoreTable}.
 * @throws InvalidDatasetError as {@link parseScoreCsv}, on the first bad line.
 */
export async function parseScoreCsvStream(chunks: AsyncIterable<Uint8Array | string>, source = 'csv'): Promise<ScoreTable> {
  const fn = `parseScoreCsv(${source})`;
  if (chunks === null || typeof chunks !== 'object' || typeof (chunks as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function')
    throw new InvalidDatasetError(`${fn}: expected an async iterable of text or bytes, got ${chunks === null ? 'null' : typeof chunks}`);
  const reader = new ScoreCsvReader(fn);
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) reader.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  reader.push(decoder.decode());
  return reader.finish();
}
