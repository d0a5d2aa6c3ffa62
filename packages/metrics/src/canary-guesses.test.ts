import { describe, expect, it } from 'vitest';
import { canaryGuesses } from './canary-guesses';
import { MetricsError } from './metrics-error';

describe('canaryGuesses', () => {
  // Hand-counted: scores 5…0 for ids 0…5; ids 0, 1 and 3 are in.
  const scores = [5, 4, 3, 2, 1, 0];
  const inclusion = [1, 1, 0, 1, 0, 0];

  it('guesses "in" for the k₊ highest and "out" for the k₋ lowest and counts the right ones', () => {
    expect(canaryGuesses(scores, inclusion, { positive: 1, negative: 1 })).toEqual({
      canaries: 6,
      included: 3,
      positive: 1,
      negative: 1,
      guesses: 2,
      made: 2,
      correct: 2,
    });
    // Top 3 = ids 0, 1, 2 (2 in), bottom 3 = ids 5, 4, 3 (2 out): 4 of 6.
    expect(canaryGuesses(scores, inclusion, { positive: 3, negative: 3 })).toMatchObject({ guesses: 6, made: 6, correct: 4 });
    // One-sided (k₋ = 0, jax_privacy's only mode) and booleans for inclusion.
    expect(canaryGuesses(scores, inclusion.map(Boolean), { positive: 2, negative: 0 })).toMatchObject({ guesses: 2, made: 2, correct: 2 });
  });

  it('breaks ties by canary id, and makes no guess when every score is the same (the planned r is kept)', () => {
    expect(canaryGuesses([7, 7, 7, 7], [1, 0, 1, 0], { positive: 1, negative: 1 })).toMatchObject({ guesses: 2, made: 0, correct: 0 });
    // Ascending by (score, id): ids 3, 1, 2, 0. Bottom 1 = id 3 (out, right); top 2 = ids 2 (out, wrong) and 0 (in, right).
    expect(canaryGuesses([3, 2, 2, 1], [1, 1, 0, 0], { positive: 2, negative: 1 })).toMatchObject({ guesses: 3, made: 3, correct: 2 });
    // Many excluded canaries tied at 0 (a training without noise) are still guessed "out".
    expect(canaryGuesses([0, 0, 0, 0, 0.2, 0.1], [0, 0, 0, 0, 1, 1], { positive: 2, negative: 3 })).toMatchObject({ made: 5, correct: 5 });
  });

  it('depends on the (score, inclusion) pairs only, not on the canary ids', () => {
    const perm = [4, 2, 0, 5, 1, 3];
    const a = canaryGuesses(scores, inclusion, { positive: 2, negative: 2 });
    const b = canaryGuesses(
      perm.map((i) => scores[i]!),
      perm.map((i) => inclusion[i]!),
      { positive: 2, negative: 2 },
    );
    expect(b).toEqual(a);
    expect(canaryGuesses([Infinity, 1, -Infinity], [1, 0, 0], { positive: 1, negative: 1 })).toMatchObject({ correct: 2 });
  });

  it('rejects bad scores, inclusion and plans naming the argument', () => {
    expect(() => canaryGuesses([1, 2], [1], { positive: 1, negative: 0 })).toThrow(
      'canaryGuesses: scores and inclusion must have the same length, got 2 and 1',
    );
    expect(() => canaryGuesses([1, 2], [1, 2], { positive: 1, negative: 0 })).toThrow('canaryGuesses: inclusion[1] must be a boolean or 0/1, got 2');
    expect(() => canaryGuesses([1, NaN], [1, 0], { positive: 1, negative: 0 })).toThrow('canaryGuesses: scores[1] must not be NaN');
    expect(() => canaryGuesses([1, 2], [1, 0], { positive: 2, negative: 1 })).toThrow(
      'canaryGuesses: guesses.positive + guesses.negative must be at most the 2 canaries, got 2 + 1',
    );
    expect(() => canaryGuesses([1, 2], [1, 0], { positive: -1, negative: 1 })).toThrow('canaryGuesses: guesses.positive must be an integer in [0, 2], got -1');
    expect(() => canaryGuesses([], [], { positive: 0, negative: 0 })).toThrow(MetricsError);
  });
});
