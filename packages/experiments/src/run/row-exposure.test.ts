import { signalsFromLosses, type AttackResult } from '@mia/attacks';
import { describe, expect, it } from 'vitest';
import { rowExposure, type RowExposureInput } from './row-exposure';

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

describe('rowExposure', () => {
  it('ranks the members by the strongest attack, with dataset indices, labels, scores, FPR to flag and losses', () => {
    // By hand: 'loss' scores members 0.9, 0.2, 0.5 and non-members 0.4, 0.1. At FPR 0 it finds 2 of 3
    // members (0.9 and 0.5 are above every non-member), the flat 'weak' attack none, so 'loss' ranks.
    // FPR to flag: 0.9 → 0/2, 0.5 → 0/2, 0.2 → 1/2 (0.4 ≥ 0.2).
    const { exposure, records, warning } = rowExposure(input([attack('weak', [1, 1, 1, 1, 1]), attack('loss', [0.9, 0.2, 0.5, 0.4, 0.1])]));
    expect(warning).toBeUndefined();
    expect(exposure!.attack).toBe('loss');
    expect(exposure!.top.map((r) => [r.index, r.label, r.score, r.rank, r.fprToFlag, +r.loss.toFixed(6)])).toEqual([
      [10, 0, 0.9, 1, 0, 0.1],
      [12, 0, 0.5, 2, 0, 0.5],
      [11, 1, 0.2, 3, 0.5, 2],
    ]);
    expect([exposure!.numMembers, exposure!.numNonMembers]).toEqual([3, 2]);
    expect(exposure!.scoreHistogram.members.reduce((a, b) => a + b)).toBe(3);
    expect(exposure!.scoreHistogram.nonMembers.reduce((a, b) => a + b)).toBe(2);
    expect(Array.from(records!.members.rank)).toEqual([1, 3, 2]);
    expect(records!.attacks).toEqual(['weak', 'loss']);
  });

  it('leaves out an attack whose scores are NaN or of the wrong length, and says so', () => {
    const { exposure, records, warning } = rowExposure(
      input([attack('loss', [0.9, 0.2, 0.5, 0.4, 0.1]), attack('nn', [0.5, NaN, 0.5, 0.5, 0.5]), attack('short', [1, 2])]),
    );
    expect(warning).toBe('per-record exposure of undefended leaves out nn: a score that is not a number (record 1); short: 2 scores for 5 records');
    expect(exposure!.attack).toBe('loss');
    expect(records!.attacks).toEqual(['loss']);
  });

  it('gives only a warning when no attack has usable scores, and nothing without attacks', () => {
    expect(rowExposure(input([attack('nn', [NaN, NaN, NaN, NaN, NaN])]))).toEqual({
      warning: 'no per-record exposure for undefended: no attack has usable scores (nn: a score that is not a number (record 0))',
    });
    expect(rowExposure(input([{ name: 'nn' } as unknown as AttackResult]))).toEqual({
      warning: 'no per-record exposure for undefended: no attack has usable scores (nn: no per-record scores)',
    });
    expect(rowExposure({ ...input([attack('loss', [1, 1, 1, 1, 1])]), memberIndex: [10] })).toEqual({
      warning: 'no per-record exposure for undefended: 1 + 2 dataset indices for 3 + 2 records',
    });
    expect(rowExposure(input([]))).toEqual({});
  });
});
