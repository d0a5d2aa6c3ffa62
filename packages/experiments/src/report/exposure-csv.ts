import type { RecordColumns, RowRecords } from '../run/row-exposure';
import { csvCell } from './escape';

/** The file `writeReport` writes the per-record scores to, beside `report.html`. */
export const EXPOSURE_CSV = 'exposure.csv';

/** A CSV field of `exposure.csv`: {@link csvCell} (text from the config neutralised, see there). */
export const csvField = csvCell;
const field = csvField;

/**
 * `exposure.csv`: one line per evaluation record of every row's target, members first, then
 * non-members, in partition order. Columns: `row` (the defense row's label), `set` (`member` or
 * `non-member`), `index` (the record's index in the dataset), `label`, `loss` (the target's
 * cross-entropy on it), one `score_<attack>` column per attack of the run (higher = more likely
 * member; empty where a row has no usable score of that attack), then for members `rank` (1 = the most
 * exposed, by the row's exposure attack, `rows[].exposure.attack` in `results.json`) and
 * `fpr_to_flag` (the fraction of non-members that attack scores at least as high); empty for non-members.
 */
export function exposureCsv(rows: readonly RowRecords[]): string {
  const attacks = [...new Set(rows.flatMap((r) => r.attacks))];
  const lines = [['row', 'set', 'index', 'label', 'loss', ...attacks.map((a) => `score_${a}`), 'rank', 'fpr_to_flag'].map(field).join(',')];
  for (const row of rows) {
    const column = attacks.map((a) => row.attacks.indexOf(a));
    const add = (set: string, records: RecordColumns, i: number, tail: Array<string | number>) =>
      lines.push(
        [row.row, set, records.index[i]!, records.label[i]!, records.loss[i]!, ...column.map((k) => (k < 0 ? '' : records.scores[k]![i]!)), ...tail]
          .map(field)
          .join(','),
      );
    for (let i = 0; i < row.members.index.length; i++) add('member', row.members, i, [row.members.rank[i]!, row.members.fprToFlag[i]!]);
    for (let i = 0; i < row.nonMembers.index.length; i++) add('non-member', row.nonMembers, i, ['', '']);
  }
  return `${lines.join('\n')}\n`;
}
