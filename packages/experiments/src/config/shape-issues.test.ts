import { formatOptionIssues } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { experimentSchema } from '../schema/run-schema';
import { shapeIssues } from './shape-issues';

const base = {
  name: 'shape',
  dataset: { name: 'purchaseLike' },
  partition: {},
  model: { name: 'mlp' },
  training: { epochs: 4, batchSize: 16, lr: 0.1 },
  defenses: [{ name: 'none' }],
};
const training = (extra: Record<string, unknown>) => ({ ...base, training: { ...base.training, ...extra } });
const lines = (schema: z.ZodType, input: unknown) => formatOptionIssues(shapeIssues(schema, input));

// [config, the exact lines expected]: each walks a different way through the schema (object, array,
// record, optional and default wrappers, a union of a name and an object, a discriminated union).
// The lines are the messages users see: neither a zod upgrade nor a change of the walk may alter them.
const CASES: ReadonlyArray<readonly [string, unknown, readonly string[]]> = [
  [
    'an unknown key of a wrapped object',
    training({ augment: { crop: 2, mirror: true } }),
    ['training.augment.mirror: expected one of the keys crop, flip, got an unknown key'],
  ],
  [
    'an unknown key of an array element',
    { ...base, defenses: [{ name: 'none', parms: {} }] },
    ['defenses[0].parms: expected one of the keys name, label, params, grid, search, got an unknown key'],
  ],
  [
    'an unknown key of the object of a name-or-object union',
    { ...base, attacks: ['loss', { name: 'lira', parms: {} }] },
    ['attacks[1].parms: expected one of the keys name, label, params, got an unknown key'],
  ],
  [
    'a value fitting no branch of a name-or-object union',
    { ...base, attacks: [5] },
    ['attacks[0]: expected an attack name (e.g. "loss") or { name, label?, params }, got 5'],
  ],
  [
    'a bad value inside the object branch of a name-or-object union',
    { ...base, attacks: [{ name: '' }] },
    ['attacks[0].name: expected a string of at least 1 characters, got ""'],
  ],
  [
    'an unknown discriminator',
    training({ schedule: { type: 'cosin' } }),
    ['training.schedule.type: expected one of "constant", "cosine", "multistep", "piecewise", got "cosin"'],
  ],
  [
    'an unknown key of a discriminated union branch',
    training({ schedule: { type: 'cosine', extra: 1 } }),
    ['training.schedule.extra: expected no such key, got an unknown key'],
  ],
  [
    'a bad value inside a discriminated union branch',
    training({ schedule: { type: 'piecewise', ranges: [{ start: 0, end: 0, lr: 1 }] } }),
    ['training.schedule.ranges[0].end: expected a number > 0, got 0'],
  ],
  ['a list too short', training({ schedule: { type: 'piecewise', ranges: [] } }), ['training.schedule.ranges: expected a list of at least 1 entries, got []']],
  ['a union of literals', { ...base, shadowSeed: 'both' }, ['shadowSeed: expected a valid value, got "both"']],
  [
    'numbers too big',
    { ...training({ augment: { crop: 17 } }), shadowModels: 65 },
    ['training.augment.crop: expected a number ≤ 16, got 17', 'shadowModels: expected a number ≤ 64, got 65'],
  ],
  [
    'values inside records',
    { ...base, paper: { source: 'x', values: { a: { b: 'c' } } }, defenses: [{ name: 'ccl', grid: { alpha: [] } }] },
    ['defenses[0].grid.alpha: expected a list of at least 1 entries, got []', 'paper.values.a.b: expected a number, got "c"'],
  ],
  ['a pattern', { ...base, name: 'a b' }, ['name: expected letters, digits, ".", "_" or "-", got "a b"']],
  ['no object at all', 5, ['(root): expected an object, got 5']],
];

describe('shapeIssues', () => {
  it('accepts a valid config', () => {
    expect(shapeIssues(experimentSchema, base)).toEqual([]);
  });

  for (const [what, input, expected] of CASES)
    it(`names the path, the expected and the actual value: ${what}`, () => {
      expect(lines(experimentSchema, input)).toEqual(expected);
    });

  it('finds the keys and the discriminator values through wrapped union options', () => {
    // Wrapped options the experiment schema does not have: an optional object in a name-or-object
    // union, a discriminated union inside a nullable record value.
    const schema = z.strictObject({
      entry: z.union([z.string(), z.strictObject({ id: z.number() }).optional()]),
      shapes: z.record(
        z.string(),
        z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('a') }), z.strictObject({ kind: z.literal('b'), size: z.number() })]).nullable(),
      ),
    });
    expect(lines(schema, { entry: { id: 1, ix: 2 }, shapes: { s: { kind: 'c' } } })).toEqual([
      'entry.ix: expected one of the keys id, got an unknown key',
      'shapes.s.kind: expected one of "a", "b", got "c"',
    ]);
  });
});
