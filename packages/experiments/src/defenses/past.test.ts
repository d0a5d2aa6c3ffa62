import { option, optionsSchema } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { trainingSchema } from '../schema/run-schema';
import { defineDefense, type DefenseDefinition, type DefenseLookup, type DefenseRunFacts } from './definition';
import { pastDefense } from './past';

// PAST builds on another defense (`params.base`); it reads that defense from the lookup the run hands
// it, never from the registry. A lookup of two made-up defenses shows it: the registry has neither.
const widen = defineDefense({
  name: 'widen',
  description: 'sets a model option',
  schema: optionsSchema({ width: option.integer({ min: 1, required: true, description: 'Hidden width.' }) }),
  modelOptions: (o) => ({ hidden: [o.width] }),
  train: async () => undefined,
});
const guard = defineDefense({
  name: 'guard',
  description: 'perturbs the released logits',
  schema: optionsSchema({}),
  train: async () => undefined,
  perturbLogits: async (_ctx, logits) => logits,
});
const known = [widen, guard] as unknown as DefenseDefinition<unknown>[];
const lookup: DefenseLookup = { find: (name) => known.find((d) => d.name === name), names: () => known.map((d) => d.name) };
const run: DefenseRunFacts = {
  training: trainingSchema.parse({ epochs: 2, batchSize: 8, lr: 0.1 }),
  preset: 'PAST6',
  hasInference: true,
  defenses: lookup,
};
const options = (base: unknown) => pastDefense.schema.parse({ base }, 'past');

describe('PAST gets its base defense from the run, not from the registry', () => {
  it("checks the base's params with the base's own schema", () => {
    expect(pastDefense.check!(options({ name: 'widen', params: { width: 4 } }), run)).toEqual([]);
    expect(pastDefense.check!(options({ name: 'widen', params: { width: 0 } }), run)).toEqual([
      { path: 'base.params.width', expected: 'an integer ≥ 1', got: '0' },
    ]);
  });

  it('names the defenses of the lookup when the base is unknown (none, the default, is not among them here)', () => {
    const issues = pastDefense.check!(options({ name: 'none', params: {} }), run);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe('base.name');
    expect(issues[0]!.expected).toMatch(/^one of widen, guard \(/);
  });

  it('refuses a base that perturbs logits', () => {
    expect(pastDefense.check!(options({ name: 'guard', params: {} }), run)[0]!.path).toBe('base.name');
  });

  it("takes the base's model options", () => {
    expect(pastDefense.modelOptions!(options({ name: 'widen', params: { width: 7 } }), lookup)).toEqual({ hidden: [7] });
    expect(pastDefense.modelOptions!(pastDefense.schema.parse({}, 'past'), lookup)).toEqual({});
  });
});
