import { InvalidArgumentError, describeValue } from '../errors';
import { expectedOf, type OptionField, type OptionsOf } from './option-fields';

/** One problem found by {@link OptionsSchema.check}. */
export interface OptionIssue {
  /** Where, e.g. `alpha` or (with a base path) `defenses[4].params.alpha`. */
  readonly path: string;
  /** What the value must be, e.g. `a number in [0, 1]`. */
  readonly expected: string;
  /** The value given, formatted (`1.5`, `"foo"`), or `an unknown option`. */
  readonly got: string;
}

/**
 * The options of a defense (or any configurable function): strict (unknown keys are errors), with
 * the defaults in this one place, checkable with config paths, and describable as JSON Schema.
 */
export interface OptionsSchema<T, F extends Readonly<Record<string, OptionField>> = Readonly<Record<string, OptionField>>> {
  /** The options by name (spread them into another schema to extend or rename options). */
  readonly fields: F;
  /**
   * Every problem of `input`, with paths under `path` (e.g. `defenses[4].params`).
   * @returns an empty array when `input` is valid.
   */
  check(input: unknown, path?: string): OptionIssue[];
  /**
   * Validates `input` and fills in the defaults.
   * @param fn - the calling function, named in the error (`cclPlugin: alpha must be …, got …`).
   * @param settings - `allowUnknown`: ignore keys the schema does not know (a function whose options
   *   extend the schema's with data or callbacks checks only its schema's part). @default false
   * @throws InvalidArgumentError naming every bad option, the expected and the actual value.
   */
  parse(input: unknown, fn: string, settings?: { readonly allowUnknown?: boolean }): T;
  /** The JSON Schema (draft 2020-12) of the options, for editors and generated config schemas. */
  jsonSchema(): Record<string, unknown>;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
const join = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`);

function checkValue(field: OptionField, value: unknown, path: string, issues: OptionIssue[]): void {
  if (field.code?.test(value) === true) return;
  const bad = () => issues.push({ path, expected: expectedOf(field), got: describeValue(value) });
  switch (field.kind) {
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value) || (field.integer === true && !Number.isInteger(value))) return void bad();
      if (field.min !== undefined && (field.exclusiveMin === true ? value <= field.min : value < field.min)) return void bad();
      if (field.max !== undefined && (field.exclusiveMax === true ? value >= field.max : value > field.max)) return void bad();
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean') bad();
      return;
    case 'string':
      if (typeof value !== 'string' || value === '') bad();
      return;
    case 'choice':
      if (typeof value !== 'string' || !field.values!.includes(value)) bad();
      return;
    case 'list':
      if (!Array.isArray(value) || value.length < (field.minItems ?? 0)) return void bad();
      value.forEach((item, i) => checkValue(field.items!, item, join(path, i), issues));
      return;
    case 'object':
      if (!isPlainObject(value)) bad();
      return;
    case 'group':
      if (!isPlainObject(value)) return void bad();
      checkFields(field.fields!, value, path, issues);
  }
}

function checkFields(fields: Readonly<Record<string, OptionField>>, input: Record<string, unknown>, path: string, issues: OptionIssue[]): void {
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(fields, key)) {
      const names = Object.keys(fields);
      issues.push({ path: join(path, key), expected: names.length === 0 ? 'no options' : `one of the options ${names.join(', ')}`, got: 'an unknown option' });
    }
  }
  for (const [key, field] of Object.entries(fields)) {
    const value = input[key];
    if (value === undefined) {
      if (field.required === true && field.default === undefined)
        issues.push({ path: join(path, key), expected: expectedOf(field), got: 'nothing (it is required)' });
      continue;
    }
    checkValue(field, value, join(path, key), issues);
  }
}

function fieldJsonSchema(field: OptionField): Record<string, unknown> {
  const s: Record<string, unknown> = {};
  if (field.description !== undefined) s.description = field.description;
  if (field.default !== undefined) s.default = field.default;
  if (field.kind === 'number') {
    s.type = field.integer === true ? 'integer' : 'number';
    if (field.min !== undefined) s[field.exclusiveMin === true ? 'exclusiveMinimum' : 'minimum'] = field.min;
    if (field.max !== undefined) s[field.exclusiveMax === true ? 'exclusiveMaximum' : 'maximum'] = field.max;
  } else if (field.kind === 'boolean') s.type = 'boolean';
  else if (field.kind === 'string') Object.assign(s, { type: 'string', minLength: 1 });
  else if (field.kind === 'choice') s.enum = [...field.values!];
  else if (field.kind === 'list')
    Object.assign(s, { type: 'array', items: fieldJsonSchema(field.items!) }, field.minItems === undefined ? {} : { minItems: field.minItems });
  else if (field.kind === 'object') s.type = 'object';
  else Object.assign(s, objectJsonSchema(field.fields!));
  return s;
}

function objectJsonSchema(fields: Readonly<Record<string, OptionField>>): Record<string, unknown> {
  const required = Object.entries(fields)
    .filter(([, f]) => f.required === true && f.default === undefined)
    .map(([k]) => k);
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, fieldJsonSchema(f)])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

function withDefaults(fields: Readonly<Record<string, OptionField>>, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input };
  for (const [key, field] of Object.entries(fields)) {
    if (out[key] === undefined && field.default !== undefined) out[key] = field.default;
    else if (field.kind === 'group' && isPlainObject(out[key])) out[key] = withDefaults(field.fields!, out[key]);
  }
  return out;
}

/**
 * Defines the options of a configurable function: `optionsSchema({ alpha: option.number({ min: 0,
 * max: 1, default: 0.5 }) })`. Each defense package exports its schema next to its plugin; the
 * experiment runner validates configs with it and generates the config's JSON Schema from it.
 * @param fields - the options by name (see {@link option}).
 * @returns the schema; `parse` returns the options with every default filled in.
 */
export function optionsSchema<const F extends Readonly<Record<string, OptionField>>>(fields: F): OptionsSchema<OptionsOf<F>, F> {
  const known = (input: unknown) => (isPlainObject(input) ? Object.fromEntries(Object.entries(input).filter(([k]) => Object.hasOwn(fields, k))) : input);
  const check = (input: unknown, path = ''): OptionIssue[] => {
    if (input === undefined) input = {};
    if (!isPlainObject(input)) return [{ path: path === '' ? '(options)' : path, expected: 'an object of options', got: describeValue(input) }];
    const issues: OptionIssue[] = [];
    checkFields(fields, input, path, issues);
    return issues;
  };
  return {
    fields,
    check,
    parse(input, fn, settings = {}) {
      if (settings.allowUnknown === true) input = known(input);
      const issues = check(input);
      if (issues.length > 0) throw new InvalidArgumentError(issues.map((i) => `${fn}: ${i.path} must be ${i.expected}, got ${i.got}`).join('; '));
      return withDefaults(fields, (input ?? {}) as Record<string, unknown>) as OptionsOf<F>;
    },
    jsonSchema: () => objectJsonSchema(fields),
  };
}

/** The options type an {@link OptionsSchema} parses to. */
export type InferOptions<S> = S extends OptionsSchema<infer T, infer _F> ? T : never;

/** Formats issues as config errors, one a line: `defenses[4].params.alpha: expected a number in [0, 1], got 1.5`. */
export function formatOptionIssues(issues: readonly OptionIssue[]): string[] {
  return issues.map((i) => `${i.path}: expected ${i.expected}, got ${i.got}`);
}
