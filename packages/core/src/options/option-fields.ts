/**
 * One option of an {@link OptionsSchema}: what values it takes, its default and its description.
 * The phantom `T` is the option's value type; `P` is whether the option is always present after
 * {@link OptionsSchema.parse} (it has a default or is required).
 */
export interface OptionField<T = unknown, P extends boolean = boolean> {
  readonly kind: 'number' | 'boolean' | 'string' | 'choice' | 'list' | 'object' | 'group';
  /** One sentence for the JSON Schema (editors) and error messages. */
  readonly description?: string;
  /** Filled in by `parse` when the option is absent. */
  readonly default?: T;
  /** `parse` fails when the option is absent (and it has no default). @default false */
  readonly required?: boolean;
  /** Numbers: inclusive bounds, or exclusive with `exclusiveMin` / `exclusiveMax`. */
  readonly min?: number;
  readonly max?: number;
  readonly exclusiveMin?: boolean;
  readonly exclusiveMax?: boolean;
  /** Numbers: whole numbers only. */
  readonly integer?: boolean;
  /** Choices: the allowed strings. */
  readonly values?: readonly string[];
  /** Lists: the option every element must satisfy, and the least length. */
  readonly items?: OptionField;
  readonly minItems?: number;
  /** Groups: the nested options (strict: unknown keys are errors). */
  readonly fields?: Readonly<Record<string, OptionField>>;
  /**
   * Values only code can pass (a function, an object with methods) that the JSON form does not
   * describe: `test` accepts them, `description` names them in error messages.
   */
  readonly code?: { readonly test: (value: unknown) => boolean; readonly description: string };
  /** @internal phantom type of the value */
  readonly __value?: T;
  /** @internal phantom presence */
  readonly __present?: P;
}

/** Common settings of every option builder. */
export interface FieldSettings<T> {
  readonly description?: string;
  readonly default?: T;
  readonly required?: boolean;
}

/** Whether a builder's settings make the option always present after parsing. */
export type Presence<S> = S extends { default: unknown } ? true : S extends { required: true } ? true : false;

/** Settings of {@link option.number}. */
export interface NumberSettings extends FieldSettings<number> {
  readonly min?: number;
  readonly max?: number;
  readonly exclusiveMin?: boolean;
  readonly exclusiveMax?: boolean;
  readonly integer?: boolean;
}

/**
 * Builders of {@link OptionField}s, e.g. `option.number({ min: 0, max: 1, default: 0.5 })`.
 * @see optionsSchema
 */
export const option = {
  /** A finite number, optionally bounded and/or whole. */
  number: <const S extends NumberSettings>(settings: S): OptionField<number, Presence<S>> => ({ kind: 'number', ...settings }),
  /** A whole number, optionally bounded. */
  integer: <const S extends Omit<NumberSettings, 'integer'>>(settings: S): OptionField<number, Presence<S>> => ({ kind: 'number', integer: true, ...settings }),
  /** `true` or `false`. */
  boolean: <const S extends FieldSettings<boolean>>(settings: S): OptionField<boolean, Presence<S>> => ({ kind: 'boolean', ...settings }),
  /** A non-empty string. */
  string: <const S extends FieldSettings<string>>(settings: S): OptionField<string, Presence<S>> => ({ kind: 'string', ...settings }),
  /** One of the given strings; `code` admits code-only values too (e.g. a function). */
  choice: <const V extends readonly string[], const S extends FieldSettings<V[number]>, C = never>(
    values: V,
    settings: S & { readonly code?: { readonly test: (value: unknown) => value is C; readonly description: string } },
  ): OptionField<V[number] | NoInfer<C>, Presence<S>> => ({ kind: 'choice', values, ...settings }),
  /** An array whose every element satisfies `items`. */
  list: <T, const S extends FieldSettings<readonly T[]> & { readonly minItems?: number }>(
    items: OptionField<T>,
    settings: S,
  ): OptionField<readonly T[], Presence<S>> => ({
    kind: 'list',
    items,
    ...settings,
  }),
  /** Any plain JSON object, checked by whoever uses it (e.g. the parameters of another defense). */
  object: <const S extends FieldSettings<Readonly<Record<string, unknown>>>>(settings: S): OptionField<Readonly<Record<string, unknown>>, Presence<S>> => ({
    kind: 'object',
    ...settings,
  }),
  /** A nested object of named options (unknown keys are errors). */
  group: <F extends Readonly<Record<string, OptionField>>, const S extends FieldSettings<never>>(
    fields: F,
    settings: S,
  ): OptionField<OptionsOf<F>, Presence<S>> => ({
    kind: 'group',
    fields,
    ...settings,
  }),
};

type ValueOf<F> = F extends OptionField<infer T> ? T : never;
type PresentKeys<F> = { [K in keyof F]: F[K] extends OptionField<unknown, true> ? K : never }[keyof F];

/** The options an {@link OptionsSchema} with these fields parses to: defaulted and required options present, the rest optional. */
export type OptionsOf<F extends Readonly<Record<string, OptionField>>> = {
  readonly [K in PresentKeys<F>]: ValueOf<F[K]>;
} & {
  readonly [K in Exclude<keyof F, PresentKeys<F>>]?: ValueOf<F[K]>;
};

/** What a value of this field must be, as it reads in an error message (`a number in [0, 1]`). */
export function expectedOf(field: OptionField): string {
  let text: string;
  if (field.kind === 'number') {
    const what = field.integer === true ? 'an integer' : 'a number';
    const lo = field.min === undefined ? undefined : `${field.exclusiveMin === true ? '(' : '['}${field.min}`;
    const hi = field.max === undefined ? undefined : `${field.max}${field.exclusiveMax === true ? ')' : ']'}`;
    if (lo !== undefined && hi !== undefined) text = `${what} in ${lo}, ${hi}`;
    else if (lo !== undefined) text = `${what} ${field.exclusiveMin === true ? '>' : '≥'} ${field.min}`;
    else if (hi !== undefined) text = `${what} ${field.exclusiveMax === true ? '<' : '≤'} ${field.max}`;
    else text = field.integer === true ? 'an integer' : 'a finite number';
  } else if (field.kind === 'boolean') text = 'true or false';
  else if (field.kind === 'string') text = 'a non-empty string';
  else if (field.kind === 'choice') text = `one of ${field.values!.map((v) => JSON.stringify(v)).join(', ')}`;
  else if (field.kind === 'list') text = `a list${field.minItems === undefined ? '' : ` of at least ${field.minItems}`} of ${plural(expectedOf(field.items!))}`;
  else text = 'an object';
  return field.code === undefined ? text : `${text} or ${field.code.description}`;
}

const plural = (text: string) => text.replace(/^an? (number|integer)s?/, '$1s').replace(/^an? /, '');
