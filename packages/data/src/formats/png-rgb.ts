import { inflateSync } from 'node:zlib';
import { InvalidDatasetError } from '@mia/core';
import { datasetHint } from './cifar-binary';

/** Size of a decoded PNG. */
export interface PngSize {
  readonly width: number;
  readonly height: number;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Decodes an 8-bit, non-interlaced RGB or RGBA PNG into packed RGB bytes, written straight into
 * `out` at `offset` (no RGBA copy: decoding a 10 000-image CIFAR PNG allocates only its inflated
 * scanlines). Zlib's Adler-32 guards the pixel data; chunk CRCs are not checked.
 * @param expected - the size the image must have.
 * @returns the size read from the header.
 * @throws InvalidDatasetError when the bytes are not such a PNG, do not inflate, or have another size.
 * @see PNG specification (W3C, 2nd ed.) §7–§9: chunks, scanline filters 0–4
 */
export function decodePngRgb(bytes: Uint8Array, expected: PngSize, out: Uint8Array, offset = 0, file = 'PNG'): PngSize {
  const fail = (problem: string): never => {
    throw new InvalidDatasetError(`PNG reader: ${file} ${problem}; ${datasetHint(file)}`);
  };
  if (bytes.length < 33 || SIGNATURE.some((b, i) => bytes[i] !== b)) fail('does not decode as PNG (bad signature)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const idat: Uint8Array[] = [];
  let width = 0,
    height = 0,
    channels = 0,
    ended = false;
  for (let p = 8; p + 8 <= bytes.length && !ended;) {
    const length = view.getUint32(p);
    const type = String.fromCharCode(...bytes.subarray(p + 4, p + 8));
    if (p + 12 + length > bytes.length) fail(`does not decode as PNG (chunk ${type} is truncated)`);
    const body = bytes.subarray(p + 8, p + 8 + length);
    if (type === 'IHDR') {
      width = view.getUint32(p + 8);
      height = view.getUint32(p + 12);
      const [depth, color, , , interlace] = body.subarray(8, 13);
      channels = color === 2 ? 3 : color === 6 ? 4 : 0;
      if (depth !== 8 || channels === 0 || interlace !== 0)
        fail(`is unsupported (bit depth ${depth}, colour type ${color}, interlace ${interlace}); expected 8-bit RGB`);
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') ended = true;
    p += 12 + length;
  }
  if (!ended || idat.length === 0 || width === 0) fail('does not decode as PNG (missing IHDR, IDAT or IEND: truncated?)');
  if (width !== expected.width || height !== expected.height) fail(`must be ${expected.width}×${expected.height}, got ${width}×${height}`);
  if (out.length < offset + width * height * 3) fail(`does not fit the output buffer`);
  let raw: Uint8Array;
  try {
    raw = inflateSync(idat.length === 1 ? idat[0]! : Buffer.concat(idat));
  } catch (error) {
    return fail(`does not decode as PNG (${(error as Error).message})`);
  }
  const stride = width * channels;
  if (raw.length !== height * (stride + 1)) fail(`does not decode as PNG (${raw.length} bytes of scanlines, expected ${height * (stride + 1)})`);
  const bpp = channels;
  for (let r = 0; r < height; r++) {
    const start = r * (stride + 1) + 1;
    const prior = start - (stride + 1); // previous reconstructed scanline (in place)
    const filter = raw[start - 1]!;
    for (let i = 0; i < stride; i++) {
      const left = i >= bpp ? raw[start + i - bpp]! : 0;
      const up = r > 0 ? raw[prior + i]! : 0;
      const upLeft = r > 0 && i >= bpp ? raw[prior + i - bpp]! : 0;
      let value = raw[start + i]!;
      if (filter === 1) value += left;
      else if (filter === 2) value += up;
      else if (filter === 3) value += (left + up) >> 1;
      else if (filter === 4) value += paeth(left, up, upLeft);
      else if (filter !== 0) fail(`does not decode as PNG (scanline ${r} has filter type ${filter})`);
      raw[start + i] = value & 0xff;
    }
    const dst = offset + r * width * 3;
    if (channels === 3) out.set(raw.subarray(start, start + stride), dst);
    else
      for (let k = 0; k < width; k++) {
        out[dst + 3 * k] = raw[start + 4 * k]!;
        out[dst + 3 * k + 1] = raw[start + 4 * k + 1]!;
        out[dst + 3 * k + 2] = raw[start + 4 * k + 2]!;
      }
  }
  return { width, height };
}
