import { describe, expect, it } from 'vitest';
import { cclOptionsSchema } from '@mia/defense-ccl';
import { modelNames } from '@mia/models';
import { ATTACK_NAMES } from '../attacks/registry';
import { experimentJsonSchema } from './json-schema';
import { defenseNames } from '../defenses/registry';

describe('experimentJsonSchema', () => {
  it("describes every defense's params with that defense's own schema, strictly", () => {
    const schema = experimentJsonSchema() as { $schema: string; additionalProperties: boolean; required: string[]; properties: Record<string, any> };
    expect(schema.$schema).toMatch(/json-schema\.org/);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'dataset', 'partition', 'model', 'training', 'defenses']));
    const variants = schema.properties.defenses.items.anyOf as Array<{ properties: Record<string, any>; additionalProperties: boolean }>;
    expect(variants.map((v) => v.properties.name.const)).toEqual(defenseNames());
    expect(variants.every((v) => v.additionalProperties === false && v.properties.params.additionalProperties === false)).toBe(true);
    const ccl = variants.find((v) => v.properties.name.const === 'ccl')!;
    expect(ccl.properties.params).toEqual(cclOptionsSchema.jsonSchema());
    expect(ccl.properties.params.properties.alpha).toMatchObject({ type: 'number', minimum: 0, maximum: 1, default: 0.5 });
    expect(Object.keys(ccl.properties)).toEqual(expect.arrayContaining(['name', 'label', 'params', 'grid']));
    const past = variants.find((v) => v.properties.name.const === 'past')!;
    expect(past.properties.params.properties.base.required).toEqual(['name']);
    expect(schema.properties.training.additionalProperties).toBe(false);
    expect(schema.properties.modules).toMatchObject({ type: 'array', items: { type: 'string' } });
    // The names the runner accepts are enumerated, so an editor flags "cifar11" or "mpl".
    expect(schema.properties.dataset.properties.name.enum).toEqual(['cifar10', 'cifar100', 'svhn', 'purchase100', 'texas100', 'purchaseLike', 'texasLike']);
    expect(schema.properties.model.properties.name.enum).toEqual(modelNames);
    expect(schema.properties.model.properties.name.enum).toContain('resnet18');
    expect(schema.properties.attacks.items.enum).toEqual(ATTACK_NAMES);
    expect(schema.properties.attacks.items.enum).toContain('nn-mlh');
  });
});
