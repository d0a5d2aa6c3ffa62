import type { DefenseRow } from '@mia/experiments';
import { validationView, type RegisteredChooser, type SelectionCandidate } from '@mia/experiments/reproduce';
import { CHOOSERS as CCL_CHOOSERS } from '@mia/example-ccl';
import { LAMBDA_SELECTION as CRL_LAMBDA_SELECTION } from '@mia/example-crl';
import { ABLATION_LAMBDA_SELECTION, CHOOSERS as PAST_CHOOSERS, LAMBDA_SELECTION as PAST_LAMBDA_SELECTION } from '@mia/example-past';
import { SAM_RHO_SELECTION } from '@mia/example-sam';
import { describe, expect, it } from 'vitest';

// No selection on evaluation data (docs/protocol.md §5.1 "Choosing a setting", §5.3): every chooser of
// every reproduction — a setting per curve, a stopping epoch, a best-of-grid — is fed rows whose
// evaluation fields throw when read; it must choose without reading them, and choose what it chooses
// from the same rows with those fields readable.

/** What the evaluation data measured on a row: a chooser must not read any of these. */
const EVALUATION_FIELDS = [
  'trainAccuracy',
  'testAccuracy',
  'attacks',
  'maxAdvantage',
  'p1',
  'lossGap',
  'lossVariance',
  'lossHistogram',
  'exposure',
  'empiricalEpsilon',
  'se',
  'seeds',
] as const;

/** Validation numbers for the i-th planned row: around 0.5, a few points either side, with a rising per-epoch curve. */
const validationOf = (i: number) => 0.5 - 0.004 * ((i * 7) % 9) + (i === 0 ? 0.01 : 0);
const curveOf = (i: number) => Array.from({ length: 10 }, (_, e) => (validationOf(i) * (e + 1)) / 10);

/** Rows of a chooser's plan with every field filled (evaluation numbers opposite to validation), or with the evaluation fields throwing. */
function rowsOf(chooser: RegisteredChooser, guarded: boolean, withValidation = true): DefenseRow[] {
  return chooser.planned().map((p, i) => {
    const row: Record<string, unknown> = {
      defense: 'x',
      label: p.label,
      params: p.params,
      ...(withValidation ? { validationAccuracy: validationOf(i) } : {}),
      trainingMetrics: { target: withValidation ? { validationCurve: curveOf(i) } : {}, shadow: undefined },
      cache: { target: 'hit', shadow: 'hit' },
      trainSeconds: 0,
    };
    const evaluation: Record<string, unknown> = {
      trainAccuracy: 1,
      testAccuracy: 1 - validationOf(i),
      attacks: [{ attack: 'loss', accuracy: 0.9, advantage: 0.8, auc: 0.95, tprAtFpr: [], roc: { fpr: [], tpr: [] } }],
      maxAdvantage: validationOf(i),
      p1: 0.5,
      lossGap: 1,
      lossVariance: 1,
      lossHistogram: { edges: [], members: [], nonMembers: [] },
      exposure: undefined,
      empiricalEpsilon: undefined,
      se: undefined,
      seeds: undefined,
    };
    for (const field of EVALUATION_FIELDS) {
      if (guarded)
        Object.defineProperty(row, field, {
          enumerable: true,
          get: () => {
            throw new Error(`${chooser.name} read the evaluation field ${field} of row ${p.label}`);
          },
        });
      else row[field] = evaluation[field];
    }
    return row as unknown as DefenseRow;
  });
}

const CHOOSERS: readonly RegisteredChooser[] = [...PAST_CHOOSERS, ...CCL_CHOOSERS];

describe('every chooser reads the validation slice only', () => {
  it('the harness catches a chooser that reads evaluation data (a negative control)', () => {
    const cheat: RegisteredChooser = {
      name: 'cheat: best test accuracy',
      planned: () => [
        { label: 'a', params: {} },
        { label: 'b', params: {} },
      ],
      choose: (rows) => rows.reduce((x, y) => (y.testAccuracy > x.testAccuracy ? y : x)).label,
    };
    expect(() => cheat.choose(rowsOf(cheat, true))).toThrow('cheat: best test accuracy read the evaluation field testAccuracy of row b');
    // The one view function reads no evaluation field.
    expect(
      rowsOf(cheat, true)
        .map(validationView)
        .map((v) => v.label),
    ).toEqual(['a', 'b']);
  });

  it('registers the choosers of PAST (Fig. 3 settings and DP-SGD, Fig. 5a) and CCL (Table 1 early stop, Fig. 2 settings)', () => {
    expect(CHOOSERS.map((c) => c.name.split(':')[0])).toEqual(['past-fig3', 'past-fig3', 'past-fig5a', 'ccl-table1', 'ccl-fig2']);
  });

  for (const chooser of CHOOSERS) {
    it(`${chooser.name}: chooses without reading evaluation data, the same as with it readable, and from the validation slice`, () => {
      const plain = chooser.choose(rowsOf(chooser, false));
      expect(() => chooser.choose(rowsOf(chooser, true))).not.toThrow();
      expect(chooser.choose(rowsOf(chooser, true))).toEqual(plain);
      // Not vacuous: the choice rests on the validation slice (without it the chooser chooses otherwise, or refuses).
      let without: unknown;
      try {
        without = chooser.choose(rowsOf(chooser, false, false));
      } catch (error) {
        without = `refused: ${(error as Error).message}`;
      }
      expect(without).not.toEqual(plain);
    });
  }
});

describe('choices recorded as data hold validation (and, for "fits its members", train) accuracy only', () => {
  // Train accuracy on the members decides only whether a candidate fits (docs/protocol.md §5.3); it carries no attack result.
  const ALLOWED = new Set(['value', 'validationAccuracy', 'trainAccuracy']);
  const recorded: ReadonlyArray<readonly [string, readonly SelectionCandidate[]]> = [
    ['past-table1 λ (Purchase)', PAST_LAMBDA_SELECTION.purchase.candidates],
    ['past-table1 λ (CIFAR-10)', PAST_LAMBDA_SELECTION.cifar10.candidates],
    ['past ablations λ', ABLATION_LAMBDA_SELECTION.candidates],
    ['sam ρ', SAM_RHO_SELECTION.candidates],
    ['sam ρ (earlier plan)', SAM_RHO_SELECTION.previous.candidates],
    ['crl λ', CRL_LAMBDA_SELECTION.candidates],
    ['crl λ (earlier plan)', CRL_LAMBDA_SELECTION.previous.candidates],
  ];
  for (const [name, candidates] of recorded)
    it(`${name}: ${candidates.length} candidate(s), no evaluation field`, () => {
      for (const c of candidates) expect(Object.keys(c).filter((k) => !ALLOWED.has(k))).toEqual([]);
    });
});
