import { InvalidArgumentError, checkNumberInRange, type TrainingPlugin } from '@mia/core';
import { sharpnessPlugin, type SharpnessPluginOptions } from './sharpness-plugin';

/** Options of {@link samPlugin}. */
export interface SamPluginOptions extends SharpnessPluginOptions {
  /** Radius ρ of the L2 ball. @default 0.1 (the SAM-privacy paper's value) */
  readonly rho?: number;
}

/**
 * First-order SAM (Foret et al.) as a `TrainingPlugin`: per batch, `ε̂ = ρ·g/‖g‖₂` (global norm),
 * the gradient at `w + ε̂` on the same batch, weights restored, and the run's optimizer steps with
 * that gradient. BN statistics are updated on the first pass only.
 *
 * @throws InvalidArgumentError on a non-positive ρ.
 * @see docs/protocol.md §4.4, A24; SAMr `sam.py`.
 */
export function samPlugin(options: SamPluginOptions = {}): TrainingPlugin {
  const rho = options.rho ?? 0.1;
  checkPositive('samPlugin', 'rho', rho);
  return sharpnessPlugin(`sam(ρ=${rho})`, rho, 0, 1, options);
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
  ({ readonly rho: number; readonly lambda: number; readonly xi: number; readonly beta?: undefined } | { readonly rho: number; readonly beta: number; readonly lambda?: undefined; readonly xi?: undefined });

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
  checkPositive(fn, 'rho', options.rho);
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
