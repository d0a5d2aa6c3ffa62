import { InvalidDatasetError } from '@mia/core';
import { buildScoreTable, type ScoreTable } from './score-table';

const MEMBER_COLUMNS = ['member', 'is_member', 'ismember'];

/**
 * Parses a CSV score file with a header row. Columns: `label`; `member` (or `is_member`; 0/1 or
 * true/false); and either `loss`, `score`, `logit_0 … logit_{C−1}` or `prob_0 … prob_{C−1}`.
 * Separator `,` (or `;`/tab, detected from the header); blank lines are skipped.
 *
 * @param text - The file contents.
 * @param source - A file name for error messages. @default 'csv'
 * @returns The validated {@link ScoreTable}.
 * @throws InvalidDatasetError on a missing header column, a row with the wrong number of fields,
 *   or a value that is not a number.
 */
export function parseScoreCsv(text: string, source = 'csv'): ScoreTable {
  const fn = `parseScoreCsv(${source})`;
  const fail = (why: string): never => {
    throw new InvalidDatasetError(`${fn}: ${why}`);
  };
  if (typeof text !== 'string') fail(`expected text, got ${typeof text}`);
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const headerLine = lines.findIndex((l) => l !== '');
  if (headerLine < 0) fail('the file is empty');
  const sep = [',', ';', '\t'].find((s) => lines[headerLine]!.includes(s)) ?? ',';
  const header = lines[headerLine]!.split(sep).map((h) => h.trim().toLowerCase());
  const col = (name: string) => header.indexOf(name);
  const labelCol = col('label');
  const memberCol = header.findIndex((h) => MEMBER_COLUMNS.includes(h));
  if (labelCol < 0 || memberCol < 0) fail(`the header must have 'label' and 'member' columns, got ${JSON.stringify(header)}`);
  const indexed = (prefix: string) =>
    header
      .map((h, i) => [h, i] as const)
      .filter(([h]) => new RegExp(`^${prefix}_\\d+$`).test(h))
      .sort((a, b) => Number(a[0].slice(prefix.length + 1)) - Number(b[0].slice(prefix.length + 1)))
      .map(([, i]) => i);
  const logitCols = indexed('logit');
  const probCols = indexed('prob');
  const columns: Record<string, number[]> = { labels: [], isMember: [] };
  const groups: [string, number[]][] = [
    ['logits', logitCols],
    ['probabilities', probCols],
    ['losses', col('loss') >= 0 ? [col('loss')] : []],
    ['scores', col('score') >= 0 ? [col('score')] : []],
  ];
  const used = groups.filter(([, cols]) => cols.length > 0);
  if (used.length !== 1) fail(`exactly one of loss, score, logit_<j> or prob_<j> columns must be present, got ${used.map(([k]) => k).join(', ') || 'none'}`);
  const [kind, valueCols] = used[0]!;
  columns[kind] = [];
  const num = (text: string, row: number, name: string): number => {
    const t = text.trim().toLowerCase();
    if (t === 'true') return 1;
    if (t === 'false') return 0;
    const v = t === '' ? NaN : Number(t);
    return Number.isNaN(v) ? fail(`line ${row + 1}: ${name} must be a number, got ${JSON.stringify(text)}`) : v;
  };
  for (let r = headerLine + 1; r < lines.length; r++) {
    if (lines[r] === '') continue;
    const fields = lines[r]!.split(sep);
    if (fields.length !== header.length) fail(`line ${r + 1} has ${fields.length} fields, the header has ${header.length}`);
    columns.labels!.push(num(fields[labelCol]!, r, 'label'));
    columns.isMember!.push(num(fields[memberCol]!, r, 'member'));
    for (const c of valueCols) columns[kind]!.push(num(fields[c]!, r, header[c]!));
  }
  return buildScoreTable(fn, { ...columns, rowWidth: kind === 'logits' || kind === 'probabilities' ? valueCols.length : undefined });
}
