import { z } from 'zod';
import { experimentSchema } from './config';
import { defenseNames, getDefense } from './defense-registry';

/**
 * The JSON Schema (draft 2020-12) of experiment configs, for editors (`# yaml-language-server:
 * $schema=…` or `"$schema"`): the config's shape, with each registered defense's `params` described
 * by that defense's own schema (the same one the runner validates with).
 */
export function experimentJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(experimentSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown> & {
    properties: Record<string, Record<string, unknown>>;
  };
  const entry = schema.properties.defenses!.items as { properties: Record<string, unknown> };
  const variants = defenseNames().map((name) => {
    const definition = getDefense(name);
    return {
      description: definition.description,
      type: 'object',
      properties: { ...entry.properties, name: { const: name }, params: definition.schema.jsonSchema() },
      required: ['name'],
      additionalProperties: false,
    };
  });
  return {
    ...schema,
    title: 'mia experiment config',
    properties: { ...schema.properties, defenses: { ...schema.properties.defenses, items: { anyOf: variants } } },
  };
}
