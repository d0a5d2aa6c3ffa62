import { describeValue, type OptionIssue } from '@mia/core';
import { z } from 'zod';

// Only zod's public API: the issues of `safeParse` with their documented fields per code, and the
// schema classes' own accessors (`instanceof z.ZodObject`, `.shape`, `.element`, `.unwrap()`, …).
type Schema = z.core.$ZodType;
type Issue = z.core.$ZodIssue;
type Key = PropertyKey;

const pathText = (path: readonly Key[]) => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('') || '(root)';

/** The value at `path` of `input`, `undefined` where it is missing. */
function valueAt(input: unknown, path: readonly Key[]): unknown {
  let value = input;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<Key, unknown>)[key] : undefined;
  return value;
}

/** `schema` without its optional, default, nullable and prefault wrappers. */
const unwrap = (schema: Schema): Schema =>
  schema instanceof z.ZodOptional || schema instanceof z.ZodDefault || schema instanceof z.ZodNullable || schema instanceof z.ZodPrefault
    ? unwrap(schema.unwrap())
    : schema;

/**
 * The object option of a union of scalars and one object (an attack entry: a name or `{ name, … }`),
 * whose keys are the union's keys; undefined for any other schema (a discriminated union of objects
 * stays itself).
 */
function mixedUnionObject(schema: Schema): z.ZodObject | undefined {
  if (!(schema instanceof z.ZodUnion)) return undefined;
  const objects = schema.options.map(unwrap).filter((option) => option instanceof z.ZodObject);
  return objects.length === 1 && objects.length < schema.options.length ? objects[0] : undefined;
}

/** `schema` unwrapped, or the object a union of scalars and one object takes its keys from. */
const containerOf = (schema: Schema): Schema => mixedUnionObject(unwrap(schema)) ?? unwrap(schema);

/** The schema at `path` of `schema`, through optional, default, array, record and object wrappers. */
function schemaAt(schema: Schema, path: readonly Key[]): Schema | undefined {
  let current: Schema | undefined = schema;
  for (const key of path) {
    if (current === undefined) return undefined;
    const container = containerOf(current);
    if (container instanceof z.ZodObject) current = Object.hasOwn(container.shape, key) ? container.shape[String(key)] : undefined;
    else if (container instanceof z.ZodArray) current = container.element;
    else if (container instanceof z.ZodRecord) current = container.valueType;
    else current = undefined;
  }
  return current === undefined ? undefined : containerOf(current);
}

/** The values the discriminator key of the discriminated union at `path` takes, in option order. */
function discriminatorValues(schema: Schema, path: readonly Key[], discriminator: string): unknown[] {
  const union = schemaAt(schema, path);
  if (!(union instanceof z.ZodUnion)) return [];
  return union.options.flatMap((option) => {
    const field: unknown = option instanceof z.ZodObject ? option.shape[discriminator] : undefined;
    return field instanceof z.ZodLiteral ? [...field.values] : [];
  });
}

const list = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');
const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function bound(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === 'too_small';
  const limit = String(issue.code === 'too_small' ? issue.minimum : issue.maximum);
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
  return result.error.issues.flatMap((issue) => issueText(schema, input, issue, []));
}

/** One zod issue as config issues; `prefix` is the path of the union a branch issue came from. */
function issueText(schema: Schema, input: unknown, issue: Issue, prefix: readonly Key[]): OptionIssue[] {
  const path = [...prefix, ...issue.path];
  const actual = valueAt(input, path);
  const got = actual === undefined ? 'nothing (it is required)' : describeValue(actual);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const object = schemaAt(schema, path);
      return issue.keys.map((key) => ({
        path: pathText([...path, key]),
        expected: object instanceof z.ZodObject ? `one of the keys ${Object.keys(object.shape).join(', ')}` : 'no such key',
        got: 'an unknown key',
      }));
    }
    case 'invalid_value':
      return [{ path: pathText(path), expected: issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${list(issue.values)}`, got }];
    case 'invalid_union': {
      const { discriminator } = issue;
      // A union without a discriminator (a name or an object): the branch the value's type fits
      // (every other branch failing on the type of the value itself) says what is wrong inside it.
      const branches = issue.errors.filter((b) => !b.some((i) => i.code === 'invalid_type' && i.path.length === 0));
      if (discriminator === undefined && branches.length === 1) return branches[0]!.flatMap((i) => issueText(schema, input, i, path));
      if (discriminator === undefined && !issue.message.startsWith('Invalid input')) return [{ path: pathText(path), expected: issue.message, got }];
      // A discriminated union reports its unmatched discriminator at the discriminator's own path.
      const values = discriminator === undefined ? [] : discriminatorValues(schema, path.slice(0, -1), discriminator);
      return [{ path: pathText(path), expected: values.length === 0 ? 'a valid value' : `one of ${list(values)}`, got }];
    }
    case 'invalid_type':
      return [{ path: pathText(path), expected: issue.expected === 'int' ? 'an integer' : article(issue.expected), got }];
    case 'too_small':
    case 'too_big':
      return [{ path: pathText(path), expected: bound(issue), got }];
    default:
      return [{ path: pathText(path), expected: issue.message.replace(/^Invalid input: expected /, '').replace(/^Invalid /, 'a valid '), got }];
  }
}
