import { z } from 'zod';
import { modelNames } from '@mia/models';
import { attackNames, getAttack } from '../attacks/registry';
import { TOKEN_ATTACKS } from '../attacks/token-attacks';
import { experimentSchema } from '../schema/run-schema';
import { defenseNames, getDefense } from '../defenses/registry';
import { DATASET_NAMES } from './validate-config';

/**
 * The JSON Schema (draft 2020-12) of experiment configs, for editors (`# yaml-language-server:
 * $schema=…` or `"$schema"`): the config's shape, with each registered defense's `params` described
 * by that defense's own schema (the same one the runner validates with), each registered attack as
 * its name or `{ name, label?, params }` with `params` described by the attack's schema, and the
 * dataset, model and attack names the runner accepts enumerated. `$defs.tokenAttacks` lists the
 * language-model attacks of `mia attack --scores <file.jsonl>` with their params (the keys and values
 * of its `--params`); a config cannot list them (they score exported log-probabilities, not a run's models).
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
  // The names the runner accepts, enumerated so that editors complete them and flag typos.
  const named = (object: Record<string, unknown>, key: string, names: readonly string[]) => {
    const properties = object.properties as Record<string, Record<string, unknown>>;
    return { ...object, properties: { ...properties, [key]: { ...properties[key], enum: [...names] } } };
  };
  // Each attack: its bare name, or { name, label?, params } with params described by its own schema.
  const attacks = schema.properties.attacks!;
  const attackVariants = attackNames().map((name) => {
    const definition = getAttack(name);
    return {
      description: definition.description,
      type: 'object',
      properties: { name: { const: name }, label: { type: 'string', minLength: 1 }, params: definition.schema.jsonSchema() },
      required: ['name'],
      additionalProperties: false,
    };
  });
  const tokenAttacks = {
    description:
      'The language-model attacks of `mia attack --scores <file.jsonl>` (per-token log-probabilities), not config attacks: `--params` takes { <name>: <params> }',
    anyOf: TOKEN_ATTACKS.map((d) => ({
      description: d.description,
      type: 'object',
      properties: { name: { const: d.name }, params: d.schema.jsonSchema() },
      required: ['name'],
      additionalProperties: false,
    })),
  };
  return {
    ...schema,
    title: 'mia experiment config',
    $defs: { ...(schema.$defs as Record<string, unknown> | undefined), tokenAttacks },
    properties: {
      ...schema.properties,
      dataset: named(schema.properties.dataset!, 'name', DATASET_NAMES),
      model: named(schema.properties.model!, 'name', modelNames),
      attacks: { ...attacks, items: { anyOf: [{ type: 'string', enum: attackNames() }, ...attackVariants] } },
      defenses: { ...schema.properties.defenses, items: { anyOf: variants } },
    },
  };
}
