import { describe, expect, expectTypeOf, it } from 'vitest';
import { InvalidArgumentError } from '../errors';
import { option } from './option-fields';
import { formatOptionIssues, optionsSchema } from './options-schema';

const isFunction = (v: unknown): v is (x: number) => number => typeof v === 'function';
const schema = optionsSchema({
  alpha: option.number({ min: 0, max: 1, default: 0.5, description: 'weight' }),
  epochs: option.integer({ min: 1, required: true }),
  rate: option.number({ min: 0, exclusiveMin: true }),
  norm: option.choice(['l1', 'l2'], { default: 'l1', code: { test: isFunction, description: 'a function' } }),
  hidden: option.list(option.integer({ min: 1 }), { minItems: 1 }),
  flag: option.boolean({}),
  base: option.group({ name: option.string({ required: true }), params: option.object({ default: {} }) }, {}),
});

describe('optionsSchema', () => {
  it('fills defaults (also inside groups) and keeps code-only values', () => {
    const f = (x: number) => x;
    const parsed = schema.parse({ epochs: 3, norm: f, base: { name: 'none' } }, 'fn');
    expect(parsed).toEqual({ alpha: 0.5, epochs: 3, norm: f, base: { name: 'none', params: {} } });
    expectTypeOf(parsed.alpha).toEqualTypeOf<number>();
    expectTypeOf(parsed.rate).toEqualTypeOf<number | undefined>();
    expectTypeOf(parsed.norm).toEqualTypeOf<'l1' | 'l2' | ((x: number) => number)>();
  });

  it('names every bad option with its path, the expected and the actual value', () => {
    const issues = schema.check(
      { alpha: 1.5, rate: 0, norm: 'l3', hidden: [4, 0.5], flag: 'yes', base: { name: '', extra: 1 }, alpah: 0.1 },
      'defenses[4].params',
    );
    expect(formatOptionIssues(issues)).toEqual([
      'defenses[4].params.alpah: expected one of the options alpha, epochs, rate, norm, hidden, flag, base, got an unknown option',
      'defenses[4].params.alpha: expected a number in [0, 1], got 1.5',
      'defenses[4].params.epochs: expected an integer ≥ 1, got nothing (it is required)',
      'defenses[4].params.rate: expected a number > 0, got 0',
      'defenses[4].params.norm: expected one of "l1", "l2" or a function, got "l3"',
      'defenses[4].params.hidden[1]: expected an integer ≥ 1, got 0.5',
      'defenses[4].params.flag: expected true or false, got "yes"',
      'defenses[4].params.base.extra: expected one of the options name, params, got an unknown option',
      'defenses[4].params.base.name: expected a non-empty string, got ""',
    ]);
    expect(schema.check({ epochs: 2, hidden: [] })).toEqual([{ path: 'hidden', expected: 'a list of at least 1 of integers ≥ 1', got: '[]' }]);
    expect(schema.check(7, 'p')).toEqual([{ path: 'p', expected: 'an object of options', got: '7' }]);
    expect(schema.check([1])[0]!.expected).toBe('an object of options');
    expect(schema.check({ epochs: Number.NaN })[0]!.got).toBe('NaN');
  });

  it('parse throws an InvalidArgumentError in the function style', () => {
    let error: unknown;
    try {
      schema.parse({ epochs: 0, alpha: -1 }, 'myPlugin');
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('myPlugin: alpha must be a number in [0, 1], got -1; myPlugin: epochs must be an integer ≥ 1, got 0');
  });

  it('describes itself as a strict JSON Schema', () => {
    expect(schema.jsonSchema()).toEqual({
      type: 'object',
      properties: {
        alpha: { description: 'weight', default: 0.5, type: 'number', minimum: 0, maximum: 1 },
        epochs: { type: 'integer', minimum: 1 },
        rate: { type: 'number', exclusiveMinimum: 0 },
        norm: { default: 'l1', enum: ['l1', 'l2'] },
        hidden: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1 },
        flag: { type: 'boolean' },
        base: {
          type: 'object',
          properties: { name: { type: 'string', minLength: 1 }, params: { default: {}, type: 'object' } },
          required: ['name'],
          additionalProperties: false,
        },
      },
      required: ['epochs'],
      additionalProperties: false,
    });
  });
});
