import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../test-utils/temp-dir';
import { ShokriTextParser, parseShokriText } from './shokri-text-parser';
import { loadTabularFromDir } from '../datasets/load-from-dir';

afterAll(removeTempDirs);

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('parseShokriText', () => {
  it('reads label-first rows and shifts labels 1..100 to 0..99', () => {
    const rows = parseShokriText(bytes('1,0,1,1\n100,1,0,0\r\n\n42,0,0,1'), { numFeatures: 3 });
    expect(rows.rows).toBe(3);
    expect(Array.from(rows.labels)).toEqual([0, 99, 41]);
    expect(Array.from(rows.features)).toEqual([0, 1, 1, 1, 0, 0, 0, 0, 1]);
  });

  it('gives the same rows when fed in chunks that split numbers and lines', () => {
    const text = bytes('17,1,0,1\n3,0,1,0\n99,1,1,1\n');
    const parser = new ShokriTextParser({ numFeatures: 3, rowsHint: 1 });
    for (let i = 0; i < text.length; i += 2) parser.push(text.subarray(i, i + 2));
    const chunked = parser.finish();
    expect(Array.from(chunked.labels)).toEqual([16, 2, 98]);
    expect(Array.from(chunked.features)).toEqual([1, 0, 1, 0, 1, 0, 1, 1, 1]);
  });

  it('reads features-only and labels-only files (Texas feats + labels)', () => {
    expect(Array.from(parseShokriText(bytes('0,1\n1,1\n'), { numFeatures: 2, hasLabel: false }).features)).toEqual([0, 1, 1, 1]);
    expect(Array.from(parseShokriText(bytes('5\n6\n'), { numFeatures: 0 }).labels)).toEqual([4, 5]);
  });

  it('rejects every corrupted case with the file and row', () => {
    const opts = { numFeatures: 3, file: 'dataset_purchase' };
    expect(() => parseShokriText(bytes('1,0,1\n'), opts)).toThrow(/dataset_purchase row 1: expected 4 fields, got 3/);
    expect(() => parseShokriText(bytes('1,0,1,1\n2,0,1,1,0\n'), opts)).toThrow(/row 2: more than 3 features/);
    expect(() => parseShokriText(bytes('1,0,2,1\n'), opts)).toThrow(/feature 2 must be 0 or 1, got 2/);
    expect(() => parseShokriText(bytes('0,0,1,1\n'), opts)).toThrow(/label must be in \[1, 100\], got 0/);
    expect(() => parseShokriText(bytes('101,0,1,1\n'), opts)).toThrow(/got 101/);
    expect(() => parseShokriText(bytes('1,0,x,1\n'), opts)).toThrow(/unexpected character "x"/);
    expect(() => parseShokriText(bytes('1,,1,1\n'), opts)).toThrow(/field 2 is empty/);
    expect(() => parseShokriText(bytes('1,0,1,1\n2,0'), opts)).toThrow(/row 2: expected 4 fields, got 2/); // truncated
    expect(() => parseShokriText(bytes('1,0,1,1\n'), { ...opts, expectedRows: 2 })).toThrow(/must hold 2 rows, got 1/);
    expect(() => parseShokriText(bytes('\n'), opts)).toThrow(/no rows/);
  });
});

describe('loadTabularFromDir', () => {
  it('reads Purchase from dataset_purchase and Texas from texas/100/feats + labels', async () => {
    const dir = await tempDir('mia-shokri-');
    const row = (label: number, f: number, k: number): string => [label, ...Array.from({ length: f }, (_, j) => ((j + k) % 3 === 0 ? 1 : 0))].join(',');
    await writeFile(join(dir, 'dataset_purchase'), `${row(1, 600, 0)}\n${row(100, 600, 1)}\n`);
    const purchase = await loadTabularFromDir('purchase100', dir, { verifySizes: false });
    expect(Array.from(purchase.y)).toEqual([0, 99]);
    expect(purchase.numFeatures).toBe(600);
    expect(purchase.features[600]).toBe(0); // row 1, feature 0: (0 + 1) % 3 ≠ 0
    await expect(loadTabularFromDir('purchase100', dir)).rejects.toThrow(/must hold 197324 rows, got 2/);

    await mkdir(join(dir, 'texas', '100'), { recursive: true });
    const feats = [row(0, 6169, 0), row(0, 6169, 2)].map((r) => r.slice(2)).join('\n');
    await writeFile(join(dir, 'texas', '100', 'feats'), feats);
    await writeFile(join(dir, 'texas', '100', 'labels'), '7\n8\n9\n');
    await expect(loadTabularFromDir('texas100', dir, { verifySizes: false })).rejects.toThrow(/has 3 labels but .* has 2 rows/);
    await writeFile(join(dir, 'texas', '100', 'labels'), '7\n8\n');
    const texas = await loadTabularFromDir('texas100', dir, { verifySizes: false });
    expect(Array.from(texas.y)).toEqual([6, 7]);
    expect(texas.inputShape).toEqual([6169]);
  });

  it('says which files are expected when they are missing', async () => {
    const dir = await tempDir('mia-shokri-');
    await expect(loadTabularFromDir('texas100', dir)).rejects.toThrow(/must hold dataset_texas, or texas100\.txt, or texas\/100\/feats \+ texas\/100\/labels/);
  });
});
