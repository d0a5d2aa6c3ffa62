import { describeValue, type OptionIssue } from '@mia/core';
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;
type Key = PropertyKey;

const pathText = (path: readonly Key[]) => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('') || '(root)';

/** The value at `path` of `input`, `undefined` where it is missing. */
function valueAt(input: unknown, path: readonly Key[]): unknown {
  let value = input;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<Key, unknown>)[key] : undefined;
  return value;
}

interface ContainerDef {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly valueType?: z.ZodType;
}

/** The schema at `path` of `schema`, through optional, default, array, record and object wrappers. */
function schemaAt(schema: z.ZodType, path: readonly Key[]): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  const unwrap = (s: z.ZodType): z.ZodType => {
    const def = (s as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
    return (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault') && def.innerType !== undefined
      ? unwrap(def.innerType)
      : s;
  };
  for (const key of path) {
    if (current === undefined) return undefined;
    const def: ContainerDef = (unwrap(current) as unknown as { _zod: { def: ContainerDef } })._zod.def;
    current = def.type === 'object' ? def.shape?.[String(key)] : def.type === 'array' ? def.element : def.type === 'record' ? def.valueType : undefined;
  }
  return current === undefined ? undefined : unwrap(current);
}

const list = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');
const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function bound(issue: Issue & { minimum?: unknown; maximum?: unknown; inclusive?: boolean; origin?: string }, small: boolean): string {
  const limit = String(small ? issue.minimum : issue.maximum);
  const op = small ? (issue.inclusive === false ? '>' : '≥') : issue.inclusive === false ? '<' : '≤';
  if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') return `a number ${op} ${limit}`;
  if (issue.origin === 'string') return `a string of ${small ? 'at least' : 'at most'} ${limit} characters`;
  if (issue.origin === 'array') return `a list of ${small ? 'at least' : 'at most'} ${limit} entries`;
  return issue.message;
}

/**
 * The shape problems of `input` against a zod schema as issues with config paths, the expected
 * values (enum members, the keys an object takes, bounds) and the actual value:
 * `training.epoch: expected one of the keys epochs, batchSize, …, got an unknown key`.
 */
export function shapeIssues(schema: z.ZodType, input: unknown): OptionIssue[] {
  const result = schema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.flatMap((issue): OptionIssue[] => {
    const path = issue.path;
    const actual = valueAt(input, path);
    const got = actual === undefined ? 'nothing (it is required)' : describeValue(actual);
    switch (issue.code) {
      case 'unrecognized_keys': {
        const shape = (schemaAt(schema, path) as unknown as { _zod?: { def: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def.shape;
        return issue.keys.map((key) => ({
          path: pathText([...path, key]),
          expected: shape === undefined ? 'no such key' : `one of the keys ${Object.keys(shape).join(', ')}`,
          got: 'an unknown key',
        }));
      }
      case 'invalid_value':
        return [{ path: pathText(path), expected: issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${list(issue.values)}`, got }];
      case 'invalid_union': {
        const discriminator = (issue as { discriminator?: string }).discriminator;
        const union = discriminator === undefined ? undefined : schemaAt(schema, path.slice(0, -1));
        const options = (
          union as unknown as { _zod?: { def: { options?: Array<{ _zod: { def: { shape: Record<string, { _zod: { def: { values?: unknown[] } } }> } } }> } } }
        )?._zod?.def.options;
        const values = options?.flatMap((o) => o._zod.def.shape[discriminator!]?._zod.def.values ?? []);
        return [{ path: pathText(path), expected: values === undefined || values.length === 0 ? 'a valid value' : `one of ${list(values)}`, got }];
      }
      case 'invalid_type':
        return [{ path: pathText(path), expected: issue.expected === 'int' ? 'an integer' : article(issue.expected), got }];
      case 'too_small':
        return [{ path: pathText(path), expected: bound(issue, true), got }];
      case 'too_big':
        return [{ path: pathText(path), expected: bound(issue, false), got }];
      default:
        return [{ path: pathText(path), expected: issue.message.replace(/^Invalid input: expected /, '').replace(/^Invalid /, 'a valid '), got }];
    }
  });
}
