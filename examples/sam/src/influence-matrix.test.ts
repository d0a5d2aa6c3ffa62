import { describe, expect, it } from 'vitest';
import { parseInfluenceMatrix } from './influence-matrix';

const bytes = (s: string) => new TextEncoder().encode(s);

/** A version-1.0 .npy file of little-endian float64 values (header padded to 64 bytes). */
function npy(shape: number[], values: number[]): Uint8Array {
  let header = `{'descr': '<f8', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header = header.padEnd(64 - 10 - 1, ' ') + '\n';
  const out = new Uint8Array(10 + header.length + 8 * values.length);
  out.set([0x93, ...bytes('NUMPY'), 1, 0, header.length & 255, header.length >> 8]);
  out.set(bytes(header), 10);
  values.forEach((v, i) => new DataView(out.buffer).setFloat64(10 + header.length + 8 * i, v, true));
  return out;
}

describe('parseInfluenceMatrix', () => {
  it('reads JSON {"influence": rows} and .npy [numTest, numTrain] row-major', () => {
    expect([...parseInfluenceMatrix(bytes('{"influence": [[1, 2, 3], [4, 5, 6]]}'), 'm.json', 2, 3)]).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...parseInfluenceMatrix(npy([2, 2], [0.5, -1, 2, 0]), 'm.npy', 2, 2)]).toEqual([0.5, -1, 2, 0]);
  });

  it('rejects corrupted or mis-shaped files with a clear error', () => {
    expect(() => parseInfluenceMatrix(bytes('{"influence": [[1, 2'), 'bad.json', 1, 2)).toThrow(/bad\.json must be a \.npy file or JSON .*unparsable JSON/);
    expect(() => parseInfluenceMatrix(bytes('{"scores": []}'), 'x.json', 1, 2)).toThrow(/x\.json must hold \{"influence": number\[\]\[\]\}/);
    expect(() => parseInfluenceMatrix(bytes('{"influence": [[1, 2], [3]]}'), 'r.json', 2, 2)).toThrow(/every row of influence must have 2 entries/);
    expect(() => parseInfluenceMatrix(bytes('{"influence": [[1, 2]]}'), 's.json', 2, 2)).toThrow(/must be \[numTest, numTrain\] = \[2, 2\].*got \[1, 2\]/);
    expect(() => parseInfluenceMatrix(npy([4], [1, 2, 3, 4]), 'v.npy', 2, 2)).toThrow(/got \[4\]/);
    expect(() => parseInfluenceMatrix(bytes('not npy'), 'c.npy', 2, 2)).toThrow();
  });
});
