import { InvalidDatasetError, checkNonNegativeInteger, checkPositiveInteger } from '@mia/core';
import { datasetHint } from './cifar-binary';

/** Options of {@link ShokriTextParser}. */
export interface ShokriTextOptions {
  /** Binary features per row (Purchase100 600, Texas100 6169). 0 for a labels-only file. */
  readonly numFeatures: number;
  /** Whether each row starts with a label in `1..numClasses`. @default true */
  readonly hasLabel?: boolean;
  /** @default 100 */
  readonly numClasses?: number;
  /** File name for error messages. @default 'Shokri text file' */
  readonly file?: string;
  /** Expected number of rows (197 324 for Purchase100, 67 330 for Texas100); omit to accept any. */
  readonly expectedRows?: number;
  /** Rows to reserve up front. @default 1024 */
  readonly rowsHint?: number;
}

/** Rows read by {@link ShokriTextParser}: binary features as bytes, labels shifted to `0..C−1`. */
export interface ShokriRows {
  readonly features: Uint8Array;
  readonly labels: Int32Array;
  readonly rows: number;
}

const COMMA = 44;
const NEWLINE = 10;

/**
 * Incremental parser of the Shokri et al. text format (`dataset_purchase`, `texas/100/feats` +
 * `labels`): one row per line, comma-separated integers, an optional label `1..C` first (shifted to
 * `0..C−1`, docs/protocol.md §1.1), then 0/1 features. Feed it chunks with {@link ShokriTextParser.push}
 * (files of 800 MB never become one string), then call {@link ShokriTextParser.finish}.
 * @throws InvalidDatasetError naming the file, the row and what is wrong.
 */
export class ShokriTextParser {
  private readonly numFeatures: number;
  private readonly hasLabel: boolean;
  private readonly numClasses: number;
  private readonly file: string;
  private readonly expectedRows: number | undefined;
  private features: Uint8Array;
  private labels: Int32Array;
  private rows = 0;
  private field = 0;
  private value = 0;
  private digits = 0;

  constructor(options: ShokriTextOptions) {
    checkNonNegativeInteger('ShokriTextParser', 'numFeatures', options.numFeatures);
    checkPositiveInteger('ShokriTextParser', 'numClasses', options.numClasses ?? 100);
    this.numFeatures = options.numFeatures;
    this.hasLabel = options.hasLabel ?? true;
    this.numClasses = options.numClasses ?? 100;
    this.file = options.file ?? 'Shokri text file';
    this.expectedRows = options.expectedRows;
    const capacity = Math.max(1, options.rowsHint ?? options.expectedRows ?? 1024);
    this.features = new Uint8Array(capacity * this.numFeatures);
    this.labels = new Int32Array(capacity);
  }

  private fail(problem: string): never {
    throw new InvalidDatasetError(`Shokri reader: ${this.file} row ${this.rows + 1}: ${problem}; ${datasetHint(this.file)}`);
  }

  private endField(): void {
    if (this.digits === 0) this.fail(`field ${this.field + 1} is empty`);
    if (this.hasLabel && this.field === 0) {
      if (this.value < 1 || this.value > this.numClasses) this.fail(`label must be in [1, ${this.numClasses}], got ${this.value}`);
      this.labels[this.rows] = this.value - 1;
    } else {
      const column = this.field - (this.hasLabel ? 1 : 0);
      if (column >= this.numFeatures) this.fail(`more than ${this.numFeatures} features`);
      if (this.value > 1) this.fail(`feature ${column + 1} must be 0 or 1, got ${this.value}`);
      this.features[this.rows * this.numFeatures + column] = this.value;
    }
    this.field++;
    this.value = 0;
    this.digits = 0;
  }

  private endRow(): void {
    const expected = this.numFeatures + (this.hasLabel ? 1 : 0);
    if (this.field !== expected) this.fail(`expected ${expected} fields, got ${this.field}`);
    this.rows++;
    this.field = 0;
  }

  private reserveRow(): void {
    if (this.rows < this.labels.length) return;
    const capacity = this.labels.length * 2;
    const features = new Uint8Array(capacity * this.numFeatures);
    features.set(this.features);
    const labels = new Int32Array(capacity);
    labels.set(this.labels);
    this.features = features;
    this.labels = labels;
  }

  /** Parses the next chunk of bytes; rows may span chunks. */
  push(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte >= 48 && byte <= 57) {
        if (this.digits === 0 && this.field === 0) this.reserveRow();
        if (this.digits < 9) this.value = this.value * 10 + (byte - 48);
        this.digits++;
      } else if (byte === COMMA) {
        this.endField();
      } else if (byte === NEWLINE) {
        if (this.field === 0 && this.digits === 0) continue; // blank line
        this.endField();
        this.endRow();
      } else if (byte !== 13 && byte !== 32 && byte !== 9) {
        this.fail(`unexpected character ${JSON.stringify(String.fromCharCode(byte))} (only integers, commas and newlines are allowed)`);
      }
    }
  }

  /** Ends the input (a last row without a newline is accepted) and returns the rows. */
  finish(): ShokriRows {
    if (this.field > 0 || this.digits > 0) {
      this.endField();
      this.endRow();
    }
    if (this.rows === 0) this.fail('the file holds no rows');
    if (this.expectedRows !== undefined && this.rows !== this.expectedRows) {
      throw new InvalidDatasetError(`Shokri reader: ${this.file} must hold ${this.expectedRows} rows, got ${this.rows}; ${datasetHint(this.file)}`);
    }
    const exact = this.rows === this.labels.length; // avoid a second copy of an 800 MB Texas file
    return {
      features: exact ? this.features : this.features.slice(0, this.rows * this.numFeatures),
      labels: exact ? this.labels : this.labels.slice(0, this.rows),
      rows: this.rows,
    };
  }
}

/** Parses a whole Shokri text file held in memory. @see {@link ShokriTextParser} */
export function parseShokriText(bytes: Uint8Array, options: ShokriTextOptions): ShokriRows {
  const parser = new ShokriTextParser(options);
  parser.push(bytes);
  return parser.finish();
}
