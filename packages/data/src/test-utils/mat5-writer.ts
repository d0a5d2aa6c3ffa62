import { deflateSync } from 'node:zlib';

/** A variable for {@link writeMat5}: uint8 or double, column-major. */
export interface Mat5Variable {
  readonly name: string;
  readonly dims: readonly number[];
  readonly data: Uint8Array | Float64Array;
}

function element(type: number, payload: Uint8Array): Uint8Array {
  const padded = Math.ceil(payload.length / 8) * 8;
  const out = new Uint8Array(8 + padded);
  const view = new DataView(out.buffer);
  view.setUint32(0, type, true);
  view.setUint32(4, payload.length, true);
  out.set(payload, 8);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * Writes a little-endian MATLAB level-5 MAT-file (test fixture writer, the layout of the MathWorks
 * "MAT-File Format" document): each variable a miMATRIX, optionally wrapped in miCOMPRESSED.
 */
export function writeMat5(vars: readonly Mat5Variable[], compress = false): Uint8Array {
  const header = new Uint8Array(128).fill(32);
  header.set(new TextEncoder().encode('MATLAB 5.0 MAT-file, written by @mia/data tests'));
  header[124] = 0x00;
  header[125] = 0x01;
  header[126] = 'I'.charCodeAt(0);
  header[127] = 'M'.charCodeAt(0);
  const parts: Uint8Array[] = [header];
  for (const v of vars) {
    const isUint8 = v.data instanceof Uint8Array;
    const flags = new Uint8Array(8);
    new DataView(flags.buffer).setUint32(0, isUint8 ? 9 : 6, true);
    const dims = new Uint8Array(4 * v.dims.length);
    v.dims.forEach((d, i) => new DataView(dims.buffer).setInt32(4 * i, d, true));
    const data = isUint8 ? (v.data as Uint8Array) : new Uint8Array((v.data as Float64Array).buffer.slice(0));
    const body = concat([element(6, flags), element(5, dims), element(1, new TextEncoder().encode(v.name)), element(isUint8 ? 2 : 9, data)]);
    const matrix = element(14, body);
    if (!compress) parts.push(matrix);
    else {
      const z = deflateSync(matrix);
      const tag = new Uint8Array(8);
      new DataView(tag.buffer).setUint32(0, 15, true);
      new DataView(tag.buffer).setUint32(4, z.length, true);
      parts.push(tag, z);
    }
  }
  return concat(parts);
}
