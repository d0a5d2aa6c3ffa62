import { InvalidDatasetError, MiaError } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { parseNpy } from './parse-npy';
import { parseScoreCsv, parseScoreCsvStream } from './parse-score-csv';
import { parseScoreJson } from './parse-score-json';
import { signalsFromScoreTable } from './signals-from-score-table';

/** Builds a version-1 `.npy` file the way `np.save` does (header padded to a multiple of 64 bytes). */
function npy(descr: string, shape: number[], data: ArrayBufferView, { fortran = false, version = 1 } = {}): Uint8Array {
  let header = `{'descr': '${descr}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const prefix = version === 1 ? 10 : 12;
  header += ' '.repeat(63 - ((prefix + header.length) % 64)) + '\n';
  const out = new Uint8Array(prefix + header.length + data.byteLength);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, header.length, true);
  else view.setUint32(8, header.length, true);
  out.set(new TextEncoder().encode(header), prefix);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), prefix + header.length);
  return out;
}

describe('parseNpy', () => {
  it('reads float32, float64, int32, int64 and bool arrays in C order', () => {
    const f4 = parseNpy(npy('<f4', [2, 3], Float32Array.from([1, 2, 3, 4, 5, 6.5])));
    expect(f4.shape).toEqual([2, 3]);
    expect([...f4.data]).toEqual([1, 2, 3, 4, 5, 6.5]);
    expect([...parseNpy(npy('<f8', [2], Float64Array.from([0.1, -2]))).data]).toEqual([0.1, -2]);
    expect([...parseNpy(npy('<i4', [3], Int32Array.from([7, -1, 0]))).data]).toEqual([7, -1, 0]);
    expect([...parseNpy(npy('<i8', [2], BigInt64Array.from([5n, -3n]))).data]).toEqual([5, -3]);
    expect([...parseNpy(npy('|b1', [3], Uint8Array.from([1, 0, 1]))).data]).toEqual([1, 0, 1]);
    expect(parseNpy(npy('<f4', [1, 2], Float32Array.from([1, 2]), { version: 2 })).shape).toEqual([1, 2]);
  });

  it('rejects corrupted and unsupported files with a clear InvalidDatasetError', () => {
    const good = npy('<f4', [2, 3], Float32Array.from([1, 2, 3, 4, 5, 6]));
    expect(() => parseNpy(good.subarray(0, good.length - 4), 'x.npy')).toThrow(/x\.npy .*needs 24 data bytes, found 20/);
    const badMagic = good.slice();
    badMagic[1] = 0;
    expect(() => parseNpy(badMagic)).toThrow(/magic/);
    expect(() => parseNpy(npy('>f4', [1], Float32Array.from([1])))).toThrow(/dtype ">f4" is not supported/);
    expect(() => parseNpy(npy('<c8', [1], Float64Array.from([1])))).toThrow(/not supported/);
    expect(() => parseNpy(npy('<f4', [1], Float32Array.from([1]), { fortran: true }))).toThrow(/Fortran/);
    expect(() => parseNpy(good.subarray(0, 9))).toThrow(InvalidDatasetError);
    const truncatedHeader = good.slice(0, 40);
    expect(() => parseNpy(truncatedHeader)).toThrow(/runs past the end/);
  });
});

describe('parseScoreJson', () => {
  it('reads nested logits with boolean membership', () => {
    const table = parseScoreJson(
      JSON.stringify({
        numClasses: 2,
        labels: [0, 1],
        isMember: [true, false],
        logits: [
          [2, 0],
          [0, 1],
        ],
      }),
    );
    expect([...table.logits!]).toEqual([2, 0, 0, 1]);
    expect([...table.isMember]).toEqual([1, 0]);
    const signals = signalsFromScoreTable(table);
    expect(signals.loss[0]).toBeCloseTo(Math.log(1 + Math.exp(-2)), 12);
  });

  it('takes the number of classes from the row width, not from the largest label', () => {
    // A 10-class model scored on examples whose labels are only 0–4: rows are 10 wide.
    const rows = [0, 1, 2, 3, 4, 2].map((y) => Array.from({ length: 10 }, (_, j) => (j === y ? 3 : j / 10)));
    const subset = parseScoreJson(JSON.stringify({ labels: [0, 1, 2, 3, 4, 2], isMember: [1, 0, 1, 0, 1, 0], logits: rows }));
    expect(subset.numClasses).toBe(10);
    expect(subset.logits).toHaveLength(60);
    expect(signalsFromScoreTable(subset).numClasses).toBe(10);
    // One row of a 10-class model with label 3.
    const one = parseScoreJson(JSON.stringify({ labels: [3], isMember: [true], probabilities: [[0.1, 0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.1, 0.05, 0.05]] }));
    expect(one.numClasses).toBe(10);
    // p_y of the single row is 0.2, so its loss is −ln 0.2.
    expect(signalsFromScoreTable(one).loss[0]).toBeCloseTo(-Math.log(0.2), 12);
    // Flat row-major without numClasses: 2 labels, 6 values → 3 classes.
    const flat = parseScoreJson('{"labels": [0, 0], "isMember": [1, 0], "logits": [1, 2, 3, 4, 5, 6]}');
    expect(flat.numClasses).toBe(3);
    // An explicit numClasses that agrees with the rows is accepted.
    expect(parseScoreJson('{"numClasses": 3, "labels": [1], "isMember": [0], "logits": [[1, 2, 3]]}').numClasses).toBe(3);
  });

  it('rejects ragged rows, a numClasses that contradicts the rows, and labels beyond the row width', () => {
    expect(() => parseScoreJson('{"labels": [0, 1, 0], "isMember": [1, 0, 1], "logits": [[1, 2, 3], [4, 5, 6], [7, 8]]}', 'r.json')).toThrow(
      /r\.json.*logits\[2\] has 2 values but logits\[0\] has 3/,
    );
    expect(() => parseScoreJson('{"labels": [0, 1], "isMember": [1, 0], "probabilities": [[0.5, 0.5], 0.3]}')).toThrow(/probabilities\[1\] must be a row/);
    expect(() => parseScoreJson('{"labels": [0], "isMember": [1], "logits": [[[1, 2]]]}')).toThrow(/logits\[0\] must be a row of numbers/);
    expect(() => parseScoreJson('{"numClasses": 10, "labels": [0], "isMember": [1], "logits": [[1, 2, 3]]}')).toThrow(
      /numClasses is 10 but the logits rows have 3 values/,
    );
    expect(() => parseScoreJson('{"labels": [0, 1], "isMember": [1, 0], "logits": [1, 2, 3]}')).toThrow(/logits has 3 values, not a multiple of the 2 labels/);
    expect(() => parseScoreJson('{"labels": [0, 3], "isMember": [1, 0], "logits": [[1, 2, 3], [4, 5, 6]]}')).toThrow(
      /numClasses must be an integer ≥ 2 above every label \(max 3\), got 3/,
    );
  });

  it('rejects corrupted JSON and inconsistent columns', () => {
    expect(() => parseScoreJson('{"labels": [0, 1', 'a.json')).toThrow(/a\.json.*not valid JSON/);
    expect(() => parseScoreJson('[1, 2]')).toThrow(/expected an object/);
    expect(() => parseScoreJson('{"labels": [0, 1], "isMember": [1], "losses": [0.1, 0.2]}')).toThrow(/isMember has 1 entries but labels has 2/);
    expect(() => parseScoreJson('{"labels": [0], "isMember": [1], "losses": [0.1], "scores": [1]}')).toThrow(/exactly one of/);
    expect(() => parseScoreJson('{"labels": [0], "isMember": [1], "losses": ["x"]}')).toThrow(/losses\[0\] must be a number/);
    expect(() => parseScoreJson('{"labels": [0], "isMember": [2], "losses": [0.1]}')).toThrow(/isMember\[0\] must be 0\/1/);
    expect(() => parseScoreJson('{"numClasses": 3, "labels": [0], "isMember": [1], "logits": [1, 2]}')).toThrow(/must have 1×3 values/);
    try {
      parseScoreJson('nope');
    } catch (error) {
      expect(MiaError.isInstance(error)).toBe(true);
    }
  });
});

describe('parseScoreCsv', () => {
  it('reads logit columns in index order and true/false membership', () => {
    const table = parseScoreCsv('label,member,logit_1,logit_0\n1,true,3,1\n0,false,0,2\n\n');
    expect(table.numClasses).toBe(2);
    expect([...table.logits!]).toEqual([1, 3, 2, 0]);
    expect([...table.isMember]).toEqual([1, 0]);
    const losses = parseScoreCsv('label;is_member;loss\n0;1;0.5\n1;0;2.5');
    expect([...losses.losses!]).toEqual([0.5, 2.5]);
  });

  it('rejects corrupted CSV, naming the line and the column of a bad value', () => {
    expect(() => parseScoreCsv('', 's.csv')).toThrow(/s\.csv.*empty/);
    expect(() => parseScoreCsv('label,loss\n0,1')).toThrow(
      `parseScoreCsv(csv): the header (line 1) must have a 'member' (or 'is_member') column, got ["label","loss"]`,
    );
    expect(() => parseScoreCsv('label,member,loss\n0,1')).toThrow(/line 2 has 2 fields, the header has 3/);
    expect(() => parseScoreCsv('label,member,loss\n0,1,abc')).toThrow('parseScoreCsv(csv): line 2, column loss: must be a finite number, got "abc"');
    expect(() => parseScoreCsv('label,member,loss,score\n0,1,1,1')).toThrow(/exactly one of/);
    expect(() => parseScoreCsv('label,member,loss\n0.5,1,1')).toThrow('line 2, column label: must be a non-negative integer (a class), got "0.5"');
    // Line 6 counts the header and a blank line; the column is named as the header writes it.
    const rows = 'label,Member,loss\n0,1,0.1\n\n1,0,0.2\n0,1,0.3\n1,x,0.4\n';
    expect(() => parseScoreCsv(rows, 'm.csv')).toThrow('parseScoreCsv(m.csv): line 6, column Member: must be 0 or 1 (or true/false), got "x"');
    expect(() => parseScoreCsv('member,loss\n1,\n')).toThrow('line 2, column loss: must be a finite number, got ""');
    expect(() => parseScoreCsv('member,loss\n1,inf\n')).toThrow('line 2, column loss: must be a finite number, got "inf"');
    expect(() => parseScoreCsv('member,loss\n1,-0.5\n')).toThrow('line 2, column loss: must be ≥ 0 (a cross-entropy), got "-0.5"');
    expect(() => parseScoreCsv('label,member,logit_0,logit_1\n2,1,0.5,0.1')).toThrow(
      'line 2, column label: must be a class below 2 (the logit_0 … logit_1 columns), got "2"',
    );
    expect(() => parseScoreCsv('label,member,logit_0,logit_2\n0,1,0.5,0.1')).toThrow('the logit columns must be logit_0 … logit_1, got logit_0, logit_2');
    expect(() => parseScoreCsv('label,member,loss\n\n')).toThrow('no data rows after the header (line 1)');
  });

  it('accepts a loss-only or score-only file without labels; logits or probabilities need them', () => {
    const losses = parseScoreCsv('member,loss\r\n1,0.5\r\n0,2.5\r\n');
    expect(losses.labels).toBeUndefined();
    expect(losses.numClasses).toBe(2);
    expect([...losses.losses!]).toEqual([0.5, 2.5]);
    expect([...parseScoreCsv('\uFEFFis_member,score\n1,3\n0,-1').scores!]).toEqual([3, -1]);
    expect(() => parseScoreCsv('member,logit_0,logit_1\n1,2,0')).toThrow(
      /the header \(line 1\) has no 'label' column, and logits need one \(the loss, confidence, φ, modified-entropy and correctness attacks read them at each row’s true label\)/,
    );
    expect(parseScoreJson('{"isMember": [1, 0], "losses": [0.1, 0.2]}').labels).toBeUndefined();
    expect(() => parseScoreJson('{"isMember": [1, 0], "probabilities": [[0.5, 0.5], [0.1, 0.9]]}')).toThrow(/missing labels: probabilities need them/);
    expect(() => signalsFromScoreTable(losses)).toThrow(/the table has no labels .* per-class threshold attacks/);
  });

  it('streams: pieces cut inside a line or a UTF-8 character give the table of the whole text, and errors name the line', async () => {
    const text = 'label;member;prob_0;prob_1;note\n1;1;0.2;0.8;café\n0;false;0.9;0.1;naïve\n\n1;TRUE;0.4;0.6;x\n';
    const bytes = new TextEncoder().encode(text);
    async function* pieces(size: number) {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    }
    const whole = parseScoreCsv(text);
    for (const size of [1, 2, 7, 1000]) {
      const streamed = await parseScoreCsvStream(pieces(size), 'p.csv');
      expect(streamed).toEqual(whole);
    }
    expect([...whole.probabilities!]).toEqual([0.2, 0.8, 0.9, 0.1, 0.4, 0.6]);
    expect([...whole.isMember]).toEqual([1, 0, 1]);
    const bad = new TextEncoder().encode('member,loss\n1,0.1\n0,0.2\n1,oops\n');
    async function* once() {
      yield bad.subarray(0, 15);
      yield bad.subarray(15);
    }
    await expect(parseScoreCsvStream(once(), 'big.csv')).rejects.toThrow('parseScoreCsv(big.csv): line 4, column loss: must be a finite number, got "oops"');
    await expect(parseScoreCsvStream('text' as never)).rejects.toThrow(/expected an async iterable/);
  });
});
