import { InvalidArgumentError } from '@mia/core';
import type { ModelSignals } from '../signals/model-signals';
import type { ReferenceAttack } from './attack';
import { checkPopulation, checkReferences, checkTarget, type CheckedReferences } from './reference-utils';
import { lowerBound } from '@mia/metrics';

/** Loss from φ, `ℓ = log(1 + e^{−φ})` (a stable softplus) (internal). */
const lossFromPhi = (phi: number): number => Math.max(-phi, 0) + Math.log1p(Math.exp(-Math.abs(phi)));

/**
 * Attack-R (Ye et al. 2022, PMr): per target point, the OUT reference losses `ℓ_1..ℓ_K` (from φ)
 * sorted into `[0, ℓ_(1..K), 1000]` are mapped to `linspace(0, 1, K+2)`; the target loss is placed
 * on that map by linear interpolation (`np.interp`, clamped). A low percentile means member, so the
 * score is `−percentile`.
 *
 * @throws InvalidArgumentError when a point has no OUT reference.
 * @see docs/protocol.md §3.10.
 */
export function attackR(options: { readonly name?: string } = {}): ReferenceAttack {
  const name = options.name ?? 'attack-r';
  let refs: CheckedReferences | undefined;
  let grids: Float64Array[] = [];
  return {
    name,
    async prepare(references) {
      refs = checkReferences(`${name}.prepare`, references);
      const r = refs;
      grids = Array.from({ length: r.size }, (_, i) => {
        const out = r.models.flatMap((m, k) => (r.keep[k]![i] === 0 ? [lossFromPhi(m.phi[i]!)] : []));
        if (out.length === 0) throw new InvalidArgumentError(`${name}.prepare: example ${i} has no OUT reference model`);
        return Float64Array.from([0, ...out.sort((a, b) => a - b), 1000]);
      });
    },
    score(target) {
      checkTarget(`${name}.score`, target, refs);
      return Float64Array.from(grids, (xp, i) => -interpolate(lossFromPhi(target.phi[i]!), xp));
    },
    dispose() {},
  };
}

/** `np.interp(x, xp, linspace(0, 1, len(xp)))` for ascending xp (internal). */
function interpolate(x: number, xp: Float64Array): number {
  const last = xp.length - 1;
  if (x <= xp[0]!) return 0;
  if (x >= xp[last]!) return 1;
  const j = lowerBound(xp, x); // xp[j-1] < x ≤ xp[j]
  const [x0, x1] = [xp[j - 1]!, xp[j]!];
  const t = x1 === x0 ? 1 : (x - x0) / (x1 - x0);
  return (j - 1 + t) / last;
}

/**
 * Attack-P (Ye et al. 2022, PMr): the fraction of population points z with `ℓ_T(z) < ℓ_T(x)`
 * (target losses only, no reference model); a low fraction means member, so the score is its
 * negation. A point is never compared with itself. `prepare` only checks the audit set size.
 *
 * @see docs/protocol.md §3.10.
 */
export function attackP(options: { readonly name?: string; readonly population?: ArrayLike<number> } = {}): ReferenceAttack {
  const name = options.name ?? 'attack-p';
  let size = -1;
  return {
    name,
    async prepare(references) {
      size = checkReferences(`${name}.prepare`, references).size;
    },
    score(target: ModelSignals) {
      if (size >= 0 && target.size !== size) throw new InvalidArgumentError(`${name}.score: target must cover the ${size} audit examples, got ${target.size}`);
      const population = checkPopulation(`${name}.score`, options.population, target.size);
      const losses = target.phi.map(lossFromPhi);
      const sorted = Float64Array.from(population, (z) => losses[z]!).sort();
      const member = new Uint8Array(target.size);
      for (const z of population) member[z] = 1;
      return Float64Array.from(losses, (l, i) => {
        const count = lowerBound(sorted, l); // self is never < itself
        const total = population.length - member[i]!;
        return total > 0 ? -count / total : 0;
      });
    },
    dispose() {},
  };
}
