import { InvalidArgumentError, InvalidDatasetError } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { addZlibBytes } from './add-zlib-bytes';
import { parseTokenLogprobsJsonl, parseTokenLogprobsJsonlStream } from './parse-token-logprobs-jsonl';
import { lowestFractionMean, tokenAttack } from './token-attack';
import { tokenLogprobRecord } from './token-logprob-record';
import { tokenRecordsFromArrays } from './token-records-from-arrays';
import { zlibByteLength } from './zlib-byte-length';

const line = (o: Record<string, unknown>) => JSON.stringify(o);
const good = [
  line({ id: 'a', member: 1, tokens: ['The', ' cat'], logprobs: [-0.5, -1.25], mu: [-2, -3], sigma: [1, 0.5], refLogprobs: [-1, -2, -3], text: 'The cat' }),
  '',
  line({ id: 7, member: false, tokens: [464, 3797], logprobs: [-2, 0], zlibBytes: 15 }),
].join('\n');

async function* chunksOf(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

describe('parseTokenLogprobsJsonl', () => {
  it('reads the documented layout, skipping blank lines', () => {
    const [a, b, ...rest] = parseTokenLogprobsJsonl(good, 'x.jsonl');
    expect(rest).toEqual([]);
    expect(a).toEqual({
      id: 'a',
      member: 1,
      tokens: ['The', ' cat'],
      logprobs: Float64Array.from([-0.5, -1.25]),
      mu: Float64Array.from([-2, -3]),
      sigma: Float64Array.from([1, 0.5]),
      refLogprobs: Float64Array.from([-1, -2, -3]),
      text: 'The cat',
    });
    expect(b).toEqual({ id: '7', member: 0, tokens: [464, 3797], logprobs: Float64Array.from([-2, 0]), zlibBytes: 15 });
  });

  it('reads the same records from a stream of byte chunks, whatever the chunk boundaries (multi-byte text included)', async () => {
    const text = `${good}\r\n${line({ id: 'ü', member: 1, logprobs: [-1], text: 'Ünïcödé 数字' })}\n`;
    const whole = parseTokenLogprobsJsonl(text);
    for (const size of [1, 3, 7, 1000]) expect(await parseTokenLogprobsJsonlStream(chunksOf(text, size))).toEqual(whole);
  });

  const corrupted: Array<[string, string, RegExp]> = [
    ['invalid JSON', '{"id": "a", "logprobs": [-1]}\n{"id": "b", "logprobs": [-1,]}', /^f:2: not valid JSON/],
    ['no logprobs', line({ id: 'a' }), /^f:1: "logprobs" must be a non-empty array of log-probabilities \(required\), got undefined/],
    ['a positive log-probability', line({ id: 'a', logprobs: [-1, 0.3] }), /^f:1: "logprobs"\[1\] must be a finite log-probability ≤ 0, got 0.3/],
    ['a string log-probability', line({ id: 'a', logprobs: ['-1'] }), /^f:1: "logprobs"\[0\] must be a finite log-probability ≤ 0, got "-1"/],
    ['empty logprobs', line({ id: 'a', logprobs: [] }), /^f:1: "logprobs" must be a non-empty array/],
    ['an unknown field', line({ id: 'a', logprob: [-1] }), /^f:1: field "logprob" must be one of the fields id, member, tokens, logprobs/],
    ['mu without sigma', line({ id: 'a', logprobs: [-1], mu: [-1] }), /^f:1: "sigma" must be present with "mu"/],
    [
      'a short mu',
      line({ id: 'a', logprobs: [-1, -2], mu: [-1], sigma: [1, 1] }),
      /^f:1: "mu" must be an array of 2 values \(one per log-probability\), got "1 values"/,
    ],
    ['a zero sigma', line({ id: 'a', logprobs: [-1], mu: [-1], sigma: [0] }), /^f:1: "sigma"\[0\] must be a finite standard deviation > 0, got 0/],
    ['tokens of another length', line({ id: 'a', logprobs: [-1], tokens: ['a', 'b'] }), /^f:1: "tokens" must be an array of 1 tokens/],
    ['a bad member', line({ id: 'a', logprobs: [-1], member: 2 }), /^f:1: "member" must be 0, 1, true or false, got 2/],
    ['a bad zlibBytes', line({ id: 'a', logprobs: [-1], zlibBytes: 1.5 }), /^f:1: "zlibBytes" must be a positive integer, got 1.5/],
    ['an empty id', line({ id: '', logprobs: [-1] }), /^f:1: "id" must be a non-empty string or an integer, got ""/],
    [
      'a repeated id',
      `${line({ id: 'a', logprobs: [-1] })}\n${line({ id: 'a', logprobs: [-2] })}`,
      /^f:2: "id" must be unique, got "a" again \(first on line 1\)/,
    ],
    [
      'member on some records only',
      `${line({ id: 'a', logprobs: [-1], member: 1 })}\n\n${line({ id: 'b', logprobs: [-2] })}`,
      /^f:3: "member" must be given on every record or on none, got none here and one on line 1/,
    ],
    ['an array instead of an object', '[1, 2]', /^f:1: the record must be a JSON object/],
    ['no record', '\n\n', /^f: must hold at least one record/],
  ];
  it.each(corrupted)('refuses %s with the line and the field', async (_what, text, message) => {
    expect(() => parseTokenLogprobsJsonl(text, 'f')).toThrow(InvalidDatasetError);
    expect(() => parseTokenLogprobsJsonl(text, 'f')).toThrow(message);
    await expect(parseTokenLogprobsJsonlStream(chunksOf(text, 5), 'f')).rejects.toThrow(message);
  });

  it('refuses bytes that are not UTF-8, naming the line', async () => {
    async function* bad() {
      yield new TextEncoder().encode(`${line({ id: 'a', logprobs: [-1] })}\n`);
      yield Uint8Array.from([0xff, 0xfe]);
    }
    await expect(parseTokenLogprobsJsonlStream(bad(), 'f')).rejects.toThrow(/^f:2: not valid UTF-8 text/);
  });
});

describe('tokenRecordsFromArrays (the .npy layout)', () => {
  const nan = NaN;
  it('cuts each row at its NaN padding', () => {
    const records = tokenRecordsFromArrays({
      logprobs: { shape: [2, 3], data: [-1, -2, nan, -3, -4, -5] },
      mu: { shape: [2, 3], data: [-1, -1, nan, -2, -2, -2] },
      sigma: { shape: [2, 3], data: [1, 2, nan, 1, 1, 1] },
      refLogprobs: { shape: [2, 2], data: [-1, nan, -2, -3] },
      member: { shape: [2], data: [1, 0] },
      zlibBytes: { shape: [2], data: [10, 12] },
      ids: ['p', 'q'],
    });
    expect(records).toEqual([
      {
        id: 'p',
        member: 1,
        logprobs: Float64Array.from([-1, -2]),
        mu: Float64Array.from([-1, -1]),
        sigma: Float64Array.from([1, 2]),
        refLogprobs: Float64Array.from([-1]),
        zlibBytes: 10,
      },
      {
        id: 'q',
        member: 0,
        logprobs: Float64Array.from([-3, -4, -5]),
        mu: Float64Array.from([-2, -2, -2]),
        sigma: Float64Array.from([1, 1, 1]),
        refLogprobs: Float64Array.from([-2, -3]),
        zlibBytes: 12,
      },
    ]);
  });

  it.each([
    ['NaN inside a row', { logprobs: { shape: [1, 3], data: [-1, nan, -2] } }, /logprobs\[0\]\[1\] must be a number \(NaN only pads the end of a row\)/],
    ['an all-NaN row', { logprobs: { shape: [2, 1], data: [-1, nan] } }, /logprobs\[1\] must hold at least one value before its NaN padding/],
    [
      'mu padded differently',
      { logprobs: { shape: [1, 2], data: [-1, -2] }, mu: { shape: [1, 2], data: [-1, nan] }, sigma: { shape: [1, 2], data: [1, 1] } },
      /mu\[0\] must have 2 values like logprobs\[0\], got 1/,
    ],
    ['too few rows', { logprobs: { shape: [2, 1], data: [-1, -2] }, member: { shape: [1], data: [1] } }, /member must have 2 rows \(one per record\), got 1/],
    ['a wrong data length', { logprobs: { shape: [2, 2], data: [-1, -2, -3] } }, /logprobs must hold 4 values for shape \[2, 2\], got 3/],
    ['a positive value', { logprobs: { shape: [1, 1], data: [2] } }, /row 0: "logprobs"\[0\] must be a finite log-probability ≤ 0, got 2/],
    ['repeated ids', { logprobs: { shape: [2, 1], data: [-1, -2] }, ids: ['a', 'a'] }, /ids\[1\] must be unique, got "a" again \(first at 0\)/],
  ])('refuses %s', (_what, arrays, message) => {
    expect(() => tokenRecordsFromArrays(arrays as never)).toThrow(InvalidDatasetError);
    expect(() => tokenRecordsFromArrays(arrays as never)).toThrow(message);
  });
});

describe('zlib', () => {
  it("zlibByteLength equals Python's len(zlib.compress(text.encode()))", async () => {
    // Python 3: len(zlib.compress(t.encode('utf-8'))) for these texts is 43, 17 and 68.
    expect(await zlibByteLength('hello world hello world, the quick brown fox')).toBe(43);
    expect(await zlibByteLength('a'.repeat(1000))).toBe(17);
    expect(await zlibByteLength('Ünïcödé text — with dashes and 数字 123 '.repeat(20))).toBe(68);
    await expect(zlibByteLength(3 as never)).rejects.toThrow(InvalidArgumentError);
  });

  it('addZlibBytes fills zlibBytes from text, keeps given ones and names a record with neither', async () => {
    const records = [tokenLogprobRecord({ id: 'a', logprobs: [-1], text: 'a'.repeat(1000) }), tokenLogprobRecord({ id: 'b', logprobs: [-1], zlibBytes: 5 })];
    expect((await addZlibBytes(records)).map((r) => r.zlibBytes)).toEqual([17, 5]);
    expect(records[0]!.zlibBytes).toBeUndefined();
    await expect(addZlibBytes([tokenLogprobRecord({ id: 'c', logprobs: [-1] })])).rejects.toThrow(
      /records\[0\] \(id "c"\) must have text or zlibBytes, got neither/,
    );
  });
});

describe('tokenAttack and lowestFractionMean', () => {
  it('lowestFractionMean averages the ⌊k·T⌋ smallest values, at least one', () => {
    const v = [-1, -2, -0.5, -4, -0.1];
    expect(lowestFractionMean(v, 0.4)).toBeCloseTo(-3, 12); // ⌊2⌋: −4, −2
    expect(lowestFractionMean(v, 0.1)).toBe(-4); // ⌊0.5⌋ = 0 → 1 value
    expect(lowestFractionMean(v, 1)).toBeCloseTo(-7.6 / 5, 12);
    expect(() => lowestFractionMean(v, 0)).toThrow(/fraction must be a number in \(0, 1\], got 0/);
  });

  it('scores every record, and names the record whose score is not finite', () => {
    const attack = tokenAttack({ name: 'first', statistic: (r) => r.logprobs[0]! * 2 });
    const records = [tokenLogprobRecord({ id: 'a', logprobs: [-1, -3] }), tokenLogprobRecord({ id: 'b', logprobs: [-0.25] })];
    expect(Array.from(attack.score(records))).toEqual([-2, -0.5]);
    const broken = tokenAttack({ name: 'broken', statistic: () => NaN });
    expect(() => broken.score(records)).toThrow(/broken.score: records\[0\] \(id "a"\): the score must be a finite number, got NaN/);
    expect(() => attack.score([])).toThrow(/records must be a non-empty array/);
  });
});
