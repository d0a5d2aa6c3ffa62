import { inflateSync } from 'node:zlib';
import { InvalidDatasetError } from '@mia/core';
import { datasetHint } from './cifar-binary';

/** A numeric variable read from a MAT-file: column-major values and MATLAB dimensions. */
export interface MatArray {
  readonly name: string;
  /** MATLAB class: 'double' | 'single' | 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'uint64'. */
  readonly className: string;
  readonly dims: readonly number[];
  /** Column-major values; `Uint8Array` for uint8 variables (no widening), `Float64Array` otherwise. */
  readonly data: Uint8Array | Float64Array;
}

const MI_INT8 = 1,
  MI_UINT8 = 2,
  MI_INT32 = 5,
  MI_UINT32 = 6,
  MI_MATRIX = 14,
  MI_COMPRESSED = 15;
const CLASS_NAMES: Record<number, string> = {
  6: 'double',
  7: 'single',
  8: 'int8',
  9: 'uint8',
  10: 'int16',
  11: 'uint16',
  12: 'int32',
  13: 'uint32',
  14: 'int64',
  15: 'uint64',
};
/** Bytes per element of each miXXX storage type with a plain numeric layout. */
const TYPE_BYTES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 6: 4, 7: 4, 9: 8, 12: 8, 13: 8 };

interface Element {
  type: number;
  start: number;
  end: number;
  next: number;
}

class Reader {
  constructor(
    readonly bytes: Uint8Array,
    readonly view: DataView,
    readonly little: boolean,
    readonly file: string,
  ) {}

  fail(problem: string): never {
    throw new InvalidDatasetError(`MAT reader: ${this.file}: ${problem}; ${datasetHint(this.file)}`);
  }

  /** Reads the data element tag at `offset` (normal or small-data-element form). */
  element(offset: number, limit: number): Element {
    if (offset + 8 > limit) this.fail(`truncated element tag at byte ${offset}`);
    const word = this.view.getUint32(offset, this.little);
    if (word >>> 16 !== 0) {
      const size = word >>> 16;
      if (size > 4) this.fail(`bad small element of ${size} bytes at byte ${offset}`);
      return { type: word & 0xffff, start: offset + 4, end: offset + 4 + size, next: offset + 8 };
    }
    const size = this.view.getUint32(offset + 4, this.little);
    const end = offset + 8 + size;
    if (end > limit) this.fail(`element at byte ${offset} claims ${size} bytes, only ${limit - offset - 8} remain (truncated file?)`);
    const padded = word === MI_COMPRESSED ? end : offset + 8 + Math.ceil(size / 8) * 8;
    return { type: word, start: offset + 8, end, next: Math.min(padded, limit) };
  }

  numbers(el: Element, count: number, asBytes: boolean): Uint8Array | Float64Array {
    const width = TYPE_BYTES[el.type];
    if (width === undefined) this.fail(`unsupported numeric storage type ${el.type}`);
    if (el.end - el.start !== count * width) this.fail(`array data holds ${(el.end - el.start) / width} values, dimensions say ${count}`);
    if (asBytes && el.type === MI_UINT8) return this.bytes.subarray(el.start, el.end);
    const out = asBytes ? new Uint8Array(count) : new Float64Array(count);
    const v = this.view;
    const le = this.little;
    for (let i = 0, p = el.start; i < count; i++, p += width) {
      switch (el.type) {
        case 1:
          out[i] = v.getInt8(p);
          break;
        case 2:
          out[i] = v.getUint8(p);
          break;
        case 3:
          out[i] = v.getInt16(p, le);
          break;
        case 4:
          out[i] = v.getUint16(p, le);
          break;
        case 5:
          out[i] = v.getInt32(p, le);
          break;
        case 6:
          out[i] = v.getUint32(p, le);
          break;
        case 7:
          out[i] = v.getFloat32(p, le);
          break;
        case 9:
          out[i] = v.getFloat64(p, le);
          break;
        case 12:
          out[i] = Number(v.getBigInt64(p, le));
          break;
        default:
          out[i] = Number(v.getBigUint64(p, le));
      }
    }
    return out;
  }

  /** Parses a miMATRIX element; returns undefined for classes we do not read (cell, struct, char, sparse). */
  matrix(el: Element): MatArray | undefined {
    const flags = this.element(el.start, el.end);
    if (flags.type !== MI_UINT32 || flags.end - flags.start !== 8) this.fail('bad array flags');
    const flagWord = this.view.getUint32(flags.start, this.little);
    const className = CLASS_NAMES[flagWord & 0xff];
    const dimsEl = this.element(flags.next, el.end);
    if (dimsEl.type !== MI_INT32) this.fail('bad dimensions element');
    const dims: number[] = [];
    for (let p = dimsEl.start; p < dimsEl.end; p += 4) dims.push(this.view.getInt32(p, this.little));
    const nameEl = this.element(dimsEl.next, el.end);
    if (nameEl.type !== MI_INT8 && nameEl.type !== MI_UINT8) this.fail('bad array name element');
    const name = new TextDecoder().decode(this.bytes.subarray(nameEl.start, nameEl.end));
    if (className === undefined || (flagWord & 0x800) !== 0) return undefined; // non-numeric or complex
    const count = dims.reduce((a, b) => a * b, 1);
    const real = this.element(nameEl.next, el.end);
    return { name, className, dims, data: this.numbers(real, count, className === 'uint8') };
  }
}

/**
 * Reads the numeric variables of a MATLAB level-5 MAT-file (little or big endian, with or without
 * compression), e.g. SVHN's `train_32x32.mat` (`X`: uint8 `[32, 32, 3, N]`, `y`: double `[N, 1]`).
 * Cell, struct, char, sparse and complex variables are skipped. MAT v7.3 (HDF5) is rejected with
 * advice to re-save as v5.
 * @param bytes - the file contents.
 * @param file - the file name, for error messages.
 * @returns the numeric variables by name.
 * @throws InvalidDatasetError on a bad header, a truncated element or inconsistent sizes.
 * @see MATLAB "MAT-File Format" (level 5), MathWorks, 2013
 */
export function parseMat5(bytes: Uint8Array, file = 'MAT-file'): Map<string, MatArray> {
  const fail = (problem: string): never => {
    throw new InvalidDatasetError(`MAT reader: ${file}: ${problem}; ${datasetHint(file)}`);
  };
  if (bytes.length < 128) fail(`a MAT-file has a 128-byte header, got ${bytes.length} bytes`);
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, 116));
  if (text.startsWith('MATLAB 7.3')) fail('MAT v7.3 (HDF5) is not supported; re-save it as v5 (scipy.io.savemat, or MATLAB save -v7)');
  const endian = String.fromCharCode(bytes[126]!, bytes[127]!);
  if (!text.startsWith('MATLAB') || (endian !== 'IM' && endian !== 'MI')) fail('not a MATLAB level-5 MAT-file (bad header)');
  const out = new Map<string, MatArray>();
  const walk = (reader: Reader, offset: number): void => {
    while (offset < reader.bytes.length) {
      const el = reader.element(offset, reader.bytes.length);
      if (el.type === MI_COMPRESSED) {
        let inner: Uint8Array;
        try {
          inner = inflateSync(reader.bytes.subarray(el.start, el.end));
        } catch (error) {
          return fail(`compressed element at byte ${offset} does not inflate (${(error as Error).message})`);
        }
        walk(new Reader(inner, new DataView(inner.buffer, inner.byteOffset, inner.byteLength), reader.little, file), 0);
      } else if (el.type === MI_MATRIX) {
        const array = reader.matrix(el);
        if (array !== undefined) out.set(array.name, array);
      }
      offset = el.next;
    }
  };
  walk(new Reader(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), endian === 'IM', file), 128);
  return out;
}
