import { InvalidArgumentError, checkNumberInRange, option, optionsSchema, type TrainingPlugin } from '@mia/core';
import { sharpnessPlugin, type SharpnessPluginOptions } from './sharpness-plugin';

/** Options of {@link samPlugin}. */
export interface SamPluginOptions extends SharpnessPluginOptions {
  /** Radius ρ of the L2 ball. @default 0.1 (the SAM-privacy paper's value) */
  readonly rho?: number;
}

const restoreStatistics = option.boolean({ default: true, description: 'Snapshot and restore the BN running statistics around the second pass.' });

/** The schema of {@link SamPluginOptions} (validation, defaults, JSON Schema; unknown keys are errors). @see docs/protocol.md §4.4 */
export const samOptionsSchema = optionsSchema({
  rho: option.number({ min: 0, exclusiveMin: true, default: 0.1, description: 'Radius ρ of the L2 ball.' }),
  restoreStatistics,
});

/**
 * The schema of {@link SharpRegPluginOptions}: ρ, and either λ and ξ (Eq. 6) or β (App. C.4.1);
 * which combination is valid {@link sharpRegPlugin} checks. Unknown keys are errors.
 * @see SAM-privacy Eq. 6, App. C.4.1; docs/protocol.md §4.4, §2.4
 */
export const sharpRegOptionsSchema = optionsSchema({
  rho: option.number({ min: 0, exclusiveMin: true, required: true, description: 'Radius ρ of the L2 ball.' }),
  lambda: option.number({ min: 0, description: 'Sharpness weight λ (with ξ).' }),
  xi: option.number({ min: 0, description: 'Flatness weight ξ (with λ; 1 + λ − ξ > 0).' }),
  beta: option.number({ min: 0, description: 'Two-parameter form β = λ/(1 + λ − ξ) (instead of λ and ξ).' }),
  restoreStatistics,
});

/**
 * First-order SAM (Foret et al.) as a `TrainingPlugin`: per batch, `ε̂ = ρ·g/‖g‖₂` (global norm),
 * the gradient at `w + ε̂` on the same batch, weights restored, and the run's optimizer steps with
 * that gradient. BN statistics are updated on the first pass only.
 *
 * @throws InvalidArgumentError on a non-positive ρ.
 * @see docs/protocol.md §4.4, A24; SAMr `sam.py`.
 */
export function samPlugin(options: SamPluginOptions = {}): TrainingPlugin {
  const { rho, restoreStatistics: restore } = samOptionsSchema.parse(options, 'samPlugin');
  return sharpnessPlugin(`sam(ρ=${rho})`, rho, 0, 1, { restoreStatistics: restore });
}

/** Options of {@link sharpMinimaPlugin}. */
export interface SharpMinimaPluginOptions extends SharpnessPluginOptions {
  /** Radius ρ. */
  readonly rho: number;
  /** Sharpness weight λ ≥ 0 (higher = sharper minima). */
  readonly lambda: number;
}

/**
 * The sharp-minima objective `L(w) − λ[max_{‖ε‖≤ρ} L(w+ε) − L(w)] = (1+λ)L(w) − λ·max L(w+ε)`,
 * first-order: `d = (1+λ)·∇L(w) − λ·∇L(w+ε̂)`.
 *
 * @throws InvalidArgumentError on a non-positive ρ or a negative λ.
 * @see SAM-privacy Eq. 4; docs/protocol.md §4.4.
 */
export function sharpMinimaPlugin(options: SharpMinimaPluginOptions): TrainingPlugin {
  checkPositive('sharpMinimaPlugin', 'rho', options.rho);
  checkNumberInRange('sharpMinimaPlugin', 'lambda', options.lambda, 0);
  return sharpnessPlugin(`sharpMinima(ρ=${options.rho}, λ=${options.lambda})`, options.rho, 1 + options.lambda, -options.lambda, options);
}

/** Options of {@link sharpRegPlugin}: either `{rho, lambda, xi}` (Eq. 6) or `{rho, beta}` (App. C.4.1). */
export type SharpRegPluginOptions = SharpnessPluginOptions &
  (
    | { readonly rho: number; readonly lambda: number; readonly xi: number; readonly beta?: undefined }
    | { readonly rho: number; readonly beta: number; readonly lambda?: undefined; readonly xi?: undefined }
  );

/**
 * SharpReg: `min (1+λ−ξ)·L(w) − λ·max_{‖ε‖₂≤ρ} L(w+ε)`, first-order
 * `d = (1+λ−ξ)·∇L(w) − λ·∇L(w+ε̂)` (three-parameter form, keeps the LR scale; the default, A24),
 * or the two-parameter form `d = ∇L(w) − β·∇L(w+ε̂)` with `β = λ/(1+λ−ξ)` (App. C.4.1; CIFAR-100:
 * λ 1.5, ξ 0.3 ⇔ β 0.6818). λ = ξ = 0 is plain training with the base optimizer.
 *
 * @throws InvalidArgumentError on a non-positive ρ, negative λ/ξ/β, or both forms at once.
 * @see SAM-privacy Eq. 6, App. C.4.1; docs/protocol.md §4.4, §2.4 (grids), A24.
 */
export function sharpRegPlugin(options: SharpRegPluginOptions): TrainingPlugin {
  const fn = 'sharpRegPlugin';
  sharpRegOptionsSchema.parse(options, fn);
  if (options.beta !== undefined) {
    if (options.lambda !== undefined || options.xi !== undefined) throw new InvalidArgumentError(`${fn}: give either {lambda, xi} or beta, got both`);
    checkNumberInRange(fn, 'beta', options.beta, 0);
    return sharpnessPlugin(`sharpReg(ρ=${options.rho}, β=${options.beta})`, options.rho, 1, -options.beta, options);
  }
  checkNumberInRange(fn, 'lambda', options.lambda, 0);
  checkNumberInRange(fn, 'xi', options.xi, 0);
  const a = 1 + options.lambda - options.xi;
  if (!(a > 0)) throw new InvalidArgumentError(`${fn}: 1 + lambda − xi must be positive (ξ too large breaks training), got ${a}`);
  return sharpnessPlugin(`sharpReg(ρ=${options.rho}, λ=${options.lambda}, ξ=${options.xi})`, options.rho, a, -options.lambda, options);
}

function checkPositive(fn: string, name: string, value: number): void {
  checkNumberInRange(fn, name, value, 0);
  if (value === 0) throw new InvalidArgumentError(`${fn}: ${name} must be a positive number, got 0`);
}
