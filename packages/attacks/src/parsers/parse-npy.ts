import { InvalidDatasetError } from '@mia/core';

/** A parsed `.npy` array: row-major values converted to float64, with its shape and dtype. */
export interface NpyArray {
  readonly shape: readonly number[];
  /** The numpy dtype string, e.g. `'<f4'`. */
  readonly dtype: string;
  /** The values in C order. */
  readonly data: Float64Array;
}

const READERS: Record<string, { size: number; read: (view: DataView, offset: number) => number }> = {
  f4: { size: 4, read: (v, o) => v.getFloat32(o, true) },
  f8: { size: 8, read: (v, o) => v.getFloat64(o, true) },
  i1: { size: 1, read: (v, o) => v.getInt8(o) },
  u1: { size: 1, read: (v, o) => v.getUint8(o) },
  b1: { size: 1, read: (v, o) => v.getUint8(o) },
  i2: { size: 2, read: (v, o) => v.getInt16(o, true) },
  u2: { size: 2, read: (v, o) => v.getUint16(o, true) },
  i4: { size: 4, read: (v, o) => v.getInt32(o, true) },
  u4: { size: 4, read: (v, o) => v.getUint32(o, true) },
  i8: { size: 8, read: (v, o) => Number(v.getBigInt64(o, true)) },
  u8: { size: 8, read: (v, o) => Number(v.getBigUint64(o, true)) },
};

/**
 * Parses a NumPy `.npy` file (format versions 1–3): little-endian (or byte-order-free) float32,
 * float64, integer and bool arrays in C order. Use it to audit models exported from PyTorch/NumPy
 * (`np.save('logits.npy', logits)`).
 *
 * @param bytes - The whole file.
 * @param source - A file name for error messages. @default 'npy'
 * @returns Shape, dtype and the values as float64.
 * @throws InvalidDatasetError on a bad magic string or header, an unsupported dtype (big-endian,
 *   complex, object, strings), Fortran order, or a data section whose length does not match the shape.
 * @see https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
 */
export function parseNpy(bytes: Uint8Array, source = 'npy'): NpyArray {
  const fail = (why: string): never => {
    throw new InvalidDatasetError(`parseNpy: ${source} is not a supported .npy file: ${why}`);
  };
  if (!(bytes instanceof Uint8Array)) fail(`expected a Uint8Array, got ${typeof bytes}`);
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (bytes.length < 10 || magic.some((b, i) => bytes[i] !== b)) fail('missing the \\x93NUMPY magic string');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const major = bytes[6]!;
  if (major < 1 || major > 3) fail(`unknown format version ${major}`);
  const headerLength = major === 1 ? view.getUint16(8, true) : bytes.length >= 12 ? view.getUint32(8, true) : fail('truncated header');
  const start = major === 1 ? 10 : 12;
  if (start + headerLength > bytes.length) fail(`header of ${headerLength} bytes runs past the end of the file (${bytes.length} bytes)`);
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(start, start + headerLength));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1] ?? fail(`no 'descr' in header ${JSON.stringify(header.trim())}`);
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1] ?? fail("no 'fortran_order' in header");
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1] ?? fail("no 'shape' in header");
  if (fortran === 'True') fail('Fortran-order arrays are not supported; save with np.ascontiguousarray');
  const shape = shapeText
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      const d = Number(s);
      return Number.isInteger(d) && d >= 0 ? d : fail(`bad dimension ${JSON.stringify(s)} in shape`);
    });
  const order = descr[0];
  const reader = READERS[descr.slice(1)];
  if (reader === undefined || (order !== '<' && order !== '|' && !(order === '>' && reader.size === 1))) {
    fail(`dtype ${JSON.stringify(descr)} is not supported (little-endian float32/float64/int/uint/bool only)`);
  }
  const count = shape.reduce((a, b) => a * b, 1);
  const dataStart = start + headerLength;
  const expected = count * reader!.size;
  if (bytes.length - dataStart !== expected) fail(`shape (${shape.join(', ')}) of ${descr} needs ${expected} data bytes, found ${bytes.length - dataStart}`);
  const data = new Float64Array(count);
  for (let i = 0; i < count; i++) data[i] = reader!.read(view, dataStart + i * reader!.size);
  return { shape, dtype: descr, data };
}
