import { describe, expect, it } from 'vitest';
import { chooseScoreFormat, sniffScoreFormat } from './score-file-format';

const bytes = (text: string) => new TextEncoder().encode(text);
const npyHead = Uint8Array.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 0x76, 0]);
const opts = { command: 'attack', flag: '--scores' };

describe('sniffScoreFormat', () => {
  it('tells .npy, JSON and CSV apart by their first bytes, and says why', () => {
    expect(sniffScoreFormat(npyHead)).toEqual({ format: 'npy', evidence: 'it starts with the \\x93NUMPY magic string of a .npy array' });
    expect(sniffScoreFormat(bytes('\uFEFF \n {"labels": [0]}'))).toEqual({ format: 'json', evidence: 'it starts with "{"' });
    expect(sniffScoreFormat(bytes('[1, 2]')).format).toBe('json');
    expect(sniffScoreFormat(bytes('member,label,loss\r\n1,0,0.5\r\n'))).toEqual({ format: 'csv', evidence: 'its first line is "member,label,loss"' });
    expect(sniffScoreFormat(bytes(`${'x,'.repeat(40)}y\n`)).evidence).toBe(`its first line is "${'x,'.repeat(28)}x..."`);
    expect(sniffScoreFormat(Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0, 0xff]))).toEqual({
      format: undefined,
      evidence: 'it starts with binary data that is neither a .npy array nor text',
    });
    expect(sniffScoreFormat(new Uint8Array())).toEqual({ format: undefined, evidence: 'it is empty' });
  });
});

describe('chooseScoreFormat', () => {
  const csv = sniffScoreFormat(bytes('member,label,loss\n'));
  const json = sniffScoreFormat(bytes('{"isMember": [1]}'));
  it('takes the extension when the content agrees, and the content with a note when there is no known extension', () => {
    expect(chooseScoreFormat('s.csv', csv, opts)).toEqual({ format: 'csv' });
    expect(chooseScoreFormat('s.TSV', csv, opts)).toEqual({ format: 'csv' });
    expect(chooseScoreFormat('s.json', json, opts)).toEqual({ format: 'json' });
    expect(chooseScoreFormat('/dev/stdin', csv, opts)).toEqual({
      format: 'csv',
      note: 'reading /dev/stdin as CSV, detected from its content (its first line is "member,label,loss"); --format csv says so without detection',
    });
    expect(chooseScoreFormat('scores.txt', json, opts).note).toBe(
      'reading scores.txt as JSON, detected from its content (it starts with "{"; .txt is not .json, .csv, .tsv or .npy); --format json says so without detection',
    );
    // A .npy whose magic is damaged: the parser says what is wrong with it.
    expect(chooseScoreFormat('a.npy', sniffScoreFormat(Uint8Array.from([0x93, 0, 0, 0, 0, 0, 1, 0, 0, 0])), opts)).toEqual({ format: 'npy' });
    expect(chooseScoreFormat('scores.txt', csv, { ...opts, format: 'CSV' })).toEqual({ format: 'csv' });
  });

  it('refuses an extension or a --format that the content contradicts, saying what it holds', () => {
    expect(() => chooseScoreFormat('scores.json', csv, opts)).toThrow(
      'attack: --scores scores.json holds CSV (its first line is "member,label,loss"), not JSON as its .json extension says: pass --format csv or rename it',
    );
    expect(() => chooseScoreFormat('scores.csv', sniffScoreFormat(npyHead), { command: 'gate', flag: 'scores file' })).toThrow(
      'gate: scores file scores.csv holds NPY (it starts with the \\x93NUMPY magic string of a .npy array), not CSV as its .csv extension says: pass --format npy or rename it',
    );
    expect(() => chooseScoreFormat('scores.txt', csv, { ...opts, format: 'json' })).toThrow(
      'attack: --scores scores.txt holds CSV (its first line is "member,label,loss"), not JSON as --format json says',
    );
    expect(() => chooseScoreFormat('s.csv', csv, { ...opts, format: 'parquet' })).toThrow('attack: --format must be json, csv or npy, got "parquet"');
    expect(() => chooseScoreFormat('blob', sniffScoreFormat(Uint8Array.from([0, 1, 2])), opts)).toThrow(
      'attack: cannot tell the format of --scores blob: it starts with binary data that is neither a .npy array nor text; pass --format json, csv or npy',
    );
    expect(() => chooseScoreFormat('e.csv', sniffScoreFormat(new Uint8Array()), opts)).toThrow('attack: --scores e.csv is empty');
  });
});
