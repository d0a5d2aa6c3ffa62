import { InvalidDatasetError } from '@mia/core';
import { LABEL_NEEDED_BY, type ScoreTable } from './score-table';
import { TypedColumn } from './typed-column';

const MEMBER_COLUMNS = ['member', 'is_member', 'ismember'];
const SINGLE_COLUMNS = { losses: 'loss', scores: 'score' } as const;
const INDEXED_COLUMNS = { logits: 'logit', probabilities: 'prob' } as const;
type Kind = 'logits' | 'probabilities' | 'losses' | 'scores';

/** The columns of a score CSV, read from its header (internal). */
interface Layout {
  readonly separator: string;
  /** The header's names as written (for messages) and lower-cased (for matching). */
  readonly names: readonly string[];
  readonly labelColumn: number;
  readonly memberColumn: number;
  readonly kind: Kind;
  readonly valueColumns: readonly number[];
}

/**
 * Reads a score CSV line by line into typed columns, so a file of any length is parsed in one pass
 * without keeping its text or one object per row (internal to `parseScoreCsv`,
 * `parseScoreCsvStream`). Every value error names the line (1-based, counting blank lines and the
 * header) and the column.
 */
export class ScoreCsvReader {
  private layout: Layout | undefined;
  private pending = '';
  private line = 0;
  private headerLine = 0;
  private maxLabel = 0;
  private readonly labels = new TypedColumn((n) => new Int32Array(n));
  private readonly members = new TypedColumn((n) => new Uint8Array(n));
  private readonly values = new TypedColumn((n) => new Float64Array(n));

  constructor(private readonly fn: string) {}

  private fail(why: string): never {
    throw new InvalidDatasetError(`${this.fn}: ${why}`);
  }

  /** Feeds the next piece of text; a line may span pieces. */
  push(text: string): void {
    let chunk = this.pending + text;
    if (this.line === 0 && this.layout === undefined && chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      this.readLine(chunk.slice(start, end));
      start = end + 1;
    }
    this.pending = chunk.slice(start);
  }

  /** Ends the input and returns the table. */
  finish(): ScoreTable {
    if (this.pending !== '') this.readLine(this.pending);
    this.pending = '';
    const layout = this.layout ?? this.fail('the file is empty');
    const n = this.members.length;
    if (n === 0) this.fail(`no data rows after the header (line ${this.headerLine})`);
    const width = layout.valueColumns.length;
    const matrix = layout.kind === 'logits' || layout.kind === 'probabilities';
    return {
      numClasses: matrix ? width : Math.max(2, this.maxLabel + 1),
      ...(layout.labelColumn < 0 ? {} : { labels: this.labels.finish() }),
      isMember: this.members.finish(),
      [layout.kind]: this.values.finish(),
    };
  }

  private readLine(raw: string): void {
    this.line++;
    const text = raw.trim();
    if (text === '') return;
    if (this.layout === undefined) {
      this.layout = this.readHeader(text);
      this.headerLine = this.line;
      return;
    }
    const { separator, names, labelColumn, memberColumn, valueColumns, kind } = this.layout;
    const fields = text.split(separator);
    if (fields.length !== names.length) this.fail(`line ${this.line} has ${fields.length} fields, the header has ${names.length}`);
    if (labelColumn >= 0) this.labels.push(this.label(fields[labelColumn]!, names[labelColumn]!));
    this.members.push(this.member(fields[memberColumn]!, names[memberColumn]!));
    for (const c of valueColumns) this.values.push(this.value(fields[c]!, names[c]!, kind === 'losses'));
  }

  private at(column: string, why: string, field: string): never {
    return this.fail(`line ${this.line}, column ${column}: ${why}, got ${JSON.stringify(field.trim())}`);
  }

  private number(field: string): number {
    const v = Number(field);
    // Number('') and Number('  ') are 0: an empty field is not a number.
    return v === 0 && field.trim() === '' ? NaN : v;
  }

  private label(field: string, column: string): number {
    const v = this.number(field);
    if (!(Number.isInteger(v) && v >= 0 && v <= 2 ** 31 - 1)) this.at(column, 'must be a non-negative integer (a class)', field);
    const layout = this.layout!;
    if ((layout.kind === 'logits' || layout.kind === 'probabilities') && v >= layout.valueColumns.length) {
      const prefix = INDEXED_COLUMNS[layout.kind];
      this.at(column, `must be a class below ${layout.valueColumns.length} (the ${prefix}_0 … ${prefix}_${layout.valueColumns.length - 1} columns)`, field);
    }
    if (v > this.maxLabel) this.maxLabel = v;
    return v;
  }

  private member(field: string, column: string): number {
    if (field === '1') return 1;
    if (field === '0') return 0;
    const t = field.trim().toLowerCase();
    if (t === 'true') return 1;
    if (t === 'false') return 0;
    const v = this.number(t);
    return v === 0 || v === 1 ? v : this.at(column, 'must be 0 or 1 (or true/false)', field);
  }

  private value(field: string, column: string, loss: boolean): number {
    const v = this.number(field);
    if (!Number.isFinite(v)) this.at(column, 'must be a finite number', field);
    if (loss && v < 0) this.at(column, 'must be ≥ 0 (a cross-entropy)', field);
    return v;
  }

  private readHeader(text: string): Layout {
    const separator = [',', ';', '\t'].find((s) => text.includes(s)) ?? ',';
    const names = text.split(separator).map((h) => h.trim());
    const lower = names.map((h) => h.toLowerCase());
    const labelColumn = lower.indexOf('label');
    const memberColumn = lower.findIndex((h) => MEMBER_COLUMNS.includes(h));
    if (memberColumn < 0) this.fail(`the header (line ${this.line}) must have a 'member' (or 'is_member') column, got ${JSON.stringify(names)}`);
    const found: Array<[Kind, number[]]> = [];
    for (const [kind, name] of Object.entries(SINGLE_COLUMNS) as Array<[Kind, string]>) if (lower.includes(name)) found.push([kind, [lower.indexOf(name)]]);
    for (const [kind, prefix] of Object.entries(INDEXED_COLUMNS) as Array<[Kind, string]>) {
      const pattern = new RegExp(`^${prefix}_(\\d+)$`);
      const columns = lower.flatMap((h, i) => (pattern.test(h) ? [[Number(pattern.exec(h)![1]), i] as const] : [])).sort((a, b) => a[0] - b[0]);
      if (columns.length === 0) continue;
      if (columns.some(([index], k) => index !== k))
        this.fail(
          `the ${prefix} columns must be ${prefix}_0 … ${prefix}_${columns.length - 1}, got ${columns.map(([index]) => `${prefix}_${index}`).join(', ')}`,
        );
      found.push([kind, columns.map(([, i]) => i)]);
    }
    if (found.length !== 1)
      this.fail(`exactly one of loss, score, logit_<j> or prob_<j> columns must be present, got ${found.map(([k]) => k).join(', ') || 'none'}`);
    const [kind, valueColumns] = found[0]!;
    if (labelColumn < 0 && (kind === 'logits' || kind === 'probabilities'))
      this.fail(
        `the header (line ${this.line}) has no 'label' column, and ${kind} need one (${LABEL_NEEDED_BY}); only a loss or score file may leave it out, got ${JSON.stringify(names)}`,
      );
    return { separator, names, labelColumn, memberColumn, kind, valueColumns };
  }
}
