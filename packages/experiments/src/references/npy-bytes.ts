import { InvalidArgumentError } from '@mia/core';

/**
 * A NumPy `.npy` file (format 1.0, C order) of a float32 (`<f4`) or bool (`|b1`) array, as `np.save`
 * writes it: the magic string, a header dict padded with spaces to a multiple of 64 bytes and ending
 * in a newline, then the values little-endian. `parseNpy` of `@mia/attacks` reads it back.
 * @throws InvalidArgumentError when the values do not fill the shape.
 * @see https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
 */
export function npyBytes(descr: '<f4' | '|b1', shape: readonly number[], values: Float32Array | Uint8Array): Uint8Array {
  const count = shape.reduce((a, b) => a * b, 1);
  if (values.length !== count) throw new InvalidArgumentError(`npyBytes: shape (${shape.join(', ')}) needs ${count} values, got ${values.length}`);
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  const unpadded = 10 + dict.length + 1;
  const header = `${dict}${' '.repeat((64 - (unpadded % 64)) % 64)}\n`;
  const bytes = new Uint8Array(10 + header.length + values.byteLength);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(bytes.buffer).setUint16(8, header.length, true);
  bytes.set(new TextEncoder().encode(header), 10);
  const body = new DataView(bytes.buffer, 10 + header.length);
  if (descr === '<f4') values.forEach((v, i) => body.setFloat32(4 * i, v, true));
  else values.forEach((v, i) => body.setUint8(i, v === 0 ? 0 : 1));
  return bytes;
}
