import { describe, expect, it } from 'vitest';
import type { DefenseRow, ExperimentResults } from '@mia/experiments';
import { matchedStopEpoch, matchedStopOf } from './matched-stop';

describe('matchedStopEpoch (docs/protocol.md A11)', () => {
  it('picks the epoch closest to the target, the earliest on ties, never the last epoch', () => {
    expect(matchedStopEpoch([0.2, 0.4, 0.6, 0.62, 0.63], 0.61)).toEqual({ epoch: 3, accuracy: 0.6, target: 0.61 });
    // 0.5 and 0.7 are equally close to 0.6: the earlier one.
    expect(matchedStopEpoch([0.1, 0.5, 0.7, 0.8], 0.6).epoch).toBe(2);
    // The target above every epoch but the last: the control still stops one epoch early.
    expect(matchedStopEpoch([0.1, 0.2, 0.3, 0.9], 0.95)).toEqual({ epoch: 3, accuracy: 0.3, target: 0.95 });
  });

  it('rejects a curve too short to stop early and a target that is not an accuracy, naming the argument', () => {
    expect(() => matchedStopEpoch([0.5], 0.5)).toThrow('matchedStopEpoch: curve must have at least 2 epochs, got 1');
    expect(() => matchedStopEpoch([0.5, 0.6], Number.NaN)).toThrow('matchedStopEpoch: target must be an accuracy in [0, 1], got NaN');
  });
});

describe('matchedStopOf', () => {
  // Only the fields matchedStopOf reads; the rest of a row does not matter here.
  const fakeResults = (rows: object[]) => ({ rows }) as unknown as ExperimentResults;
  const withCurve = (curve: unknown) => ({ label: 'w/o', validationAccuracy: 0.6, trainingMetrics: { target: { validationCurve: curve }, shadow: undefined } });
  const ccql: Partial<DefenseRow> = { label: 'CCQL', validationAccuracy: 0.55 };

  it("reads the undefended curve and the defense's validation accuracy off a selection run", () => {
    expect(matchedStopOf(fakeResults([withCurve([0.3, 0.5, 0.56, 0.6]), ccql]), 'w/o', 'CCQL')).toEqual({ epoch: 3, accuracy: 0.56, target: 0.55 });
  });

  it('is undefined without a run, a curve or a validation accuracy (no control row then)', () => {
    expect(matchedStopOf({ notRun: 'not run: dataset not available' }, 'w/o', 'CCQL')).toBeUndefined();
    expect(matchedStopOf(fakeResults([withCurve(undefined), ccql]), 'w/o', 'CCQL')).toBeUndefined();
    expect(matchedStopOf(fakeResults([withCurve([0.3, 0.5]), { ...ccql, validationAccuracy: undefined }]), 'w/o', 'CCQL')).toBeUndefined();
  });
});
