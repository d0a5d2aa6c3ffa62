import { signalsFromLosses, type AttackResult } from '@mia/attacks';
import { describe, expect, it } from 'vitest';
import { rowExposure, type RowExposureInput } from '../run/row-exposure';
import { csvField, exposureCsv } from './exposure-csv';

/** An attack result with only what the exposure reads: its name and scores (members first). */
const attack = (name: string, scores: number[]) => ({ name, scores: Float64Array.from(scores) }) as unknown as AttackResult;

// 3 members (dataset indices 10, 11, 12), 2 non-members (20, 21), 2 classes.
const input = (attacks: AttackResult[]): RowExposureInput => ({
  label: 'undefended',
  members: signalsFromLosses([0.1, 2, 0.5], [0, 1, 0], 2),
  nonMembers: signalsFromLosses([1, 3], [1, 0], 2),
  memberIndex: [10, 11, 12],
  nonMemberIndex: [20, 21],
  attacks,
});

describe('exposureCsv', () => {
  it('writes one line per member and non-member with the documented columns', () => {
    const a = rowExposure(input([attack('loss', [0.9, 0.2, 0.5, 0.4, 0.1])])).records!;
    const b = { ...rowExposure(input([attack('nn', [1, 0, 0, 0, Infinity])])).records!, row: 'CCEL, α "0.5"' };
    const lines = exposureCsv([a, b]).trimEnd().split('\n');
    // The losses are float64 values of the constructed signals: 0.1, 2, 0.5, 1, 3 exactly. 'nn' by
    // hand: member 11 and 12 tie at 0 (rank 2 each, below member 10); half the non-members (Infinity)
    // score ≥ 1, both score ≥ 0.
    expect(lines).toEqual([
      'row,set,index,label,loss,score_loss,score_nn,rank,fpr_to_flag',
      'undefended,member,10,0,0.1,0.9,,1,0',
      'undefended,member,11,1,2,0.2,,3,0.5',
      'undefended,member,12,0,0.5,0.5,,2,0',
      'undefended,non-member,20,1,1,0.4,,,',
      'undefended,non-member,21,0,3,0.1,,,',
      '"CCEL, α ""0.5""",member,10,0,0.1,,1,1,0.5',
      '"CCEL, α ""0.5""",member,11,1,2,,0,2,1',
      '"CCEL, α ""0.5""",member,12,0,0.5,,0,2,1',
      '"CCEL, α ""0.5""",non-member,20,1,1,,0,,',
      '"CCEL, α ""0.5""",non-member,21,0,3,,Infinity,,',
    ]);
  });

  it('quotes text with separators and defuses text a spreadsheet would run as a formula', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    for (const risky of ['+1', '-1+2', '@SUM(A1)']) expect(csvField(risky)).toBe(`'${risky}`);
    // A leading tab or carriage return (which some spreadsheets skip before a formula) is shown as text.
    expect(csvField('\t=1+1')).toBe('\\x09=1+1');
    expect(csvField('\r@SUM(A1)')).toBe('\\x0d@SUM(A1)');
    expect(csvField(-0.5)).toBe('-0.5');
    expect(csvField(Number.NaN)).toBe('');
  });
});
