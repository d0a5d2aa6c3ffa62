// Calls of the accountant that once never returned (a bisection that could not land, a series whose
// terms were NaN), run in a child process by `bounded-calls.test.ts` under a timeout, so that a hang
// fails that test instead of stalling the test run (a synchronous loop cannot be interrupted
// in-process). Prints one JSON line per call: its name, how long it took, and its value or error.
import { logAFractional } from '../accountant/log-a';
import { noiseMultiplierFor } from '../accountant/noise-multiplier-for';
import { rdpOf } from '../accountant/rdp-of';

/** The targets of the grid: 0.015, 0.02, …, 0.195 (the reported 0.1 among them), one just above the floor and one inside the KL jump. */
export const TARGETS: readonly number[] = [...Array.from({ length: 37 }, (_, k) => Math.round(1000 * (0.015 + 0.005 * k)) / 1000), 0.1028673, 0.102867254];
/** The mechanism of the report: q = 0.05, T = 60, δ = 10⁻⁵. */
export const MECHANISM = { sampleRate: 0.05, steps: 60, delta: 1e-5 } as const;

const calls: Array<[string, () => unknown]> = [
  ...TARGETS.map((t): [string, () => unknown] => [`noiseMultiplierFor ${t}`, () => noiseMultiplierFor({ ...MECHANISM, targetEpsilon: t })]),
  ['rdpOf σ=1e-200', () => rdpOf({ sampleRate: 0.3, noiseMultiplier: 1e-200, steps: 1, orders: [1.5, 63] })],
  ['logAFractional σ=NaN', () => logAFractional(0.3, Number.NaN, 1.5)],
];

const numbers = (_key: string, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v);

if (process.argv[1]?.endsWith('bounded-calls.ts'))
  for (const [name, call] of calls) {
    const start = performance.now();
    let outcome: { value: unknown } | { error: string };
    try {
      outcome = { value: call() };
    } catch (error) {
      outcome = { error: (error as Error).message };
    }
    process.stdout.write(`${JSON.stringify({ name, ms: performance.now() - start, ...outcome }, numbers)}\n`);
  }
