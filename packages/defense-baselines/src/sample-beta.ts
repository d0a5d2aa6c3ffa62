import { InvalidArgumentError, type Random } from '@mia/core';

/** Marsaglia–Tsang accepts more than 95 % of its proposals for every shape ≥ 1: this many rejections in a row mean a broken `random`. */
const MAX_PROPOSALS = 1000;

/** Gamma(shape, 1) by Marsaglia–Tsang (with the shape < 1 boost). */
function sampleGamma(shape: number, random: Random): number {
  if (!(shape > 0 && shape < Infinity)) throw new InvalidArgumentError(`sampleSymmetricBeta: alpha must be a finite number > 0, got ${shape}`);
  if (shape < 1) return sampleGamma(shape + 1, random) * Math.pow(1 - random.next(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (let proposals = 0; ; proposals++) {
    if (proposals === MAX_PROPOSALS)
      throw new InvalidArgumentError(
        `sampleSymmetricBeta: ${MAX_PROPOSALS} Gamma(${shape}) proposals in a row were rejected (each is accepted with probability > 0.95): random must be a uniform stream`,
      );
    const z = random.normal();
    const v = (1 + c * z) ** 3;
    if (v <= 0) continue;
    const u = 1 - random.next();
    if (Math.log(u) < 0.5 * z * z + d - d * v + d * Math.log(v)) return d * v;
  }
}

/**
 * One draw of Beta(α, α), the mixup weight distribution (α = 1 is uniform on [0, 1], drawn directly).
 * @internal
 */
export function sampleSymmetricBeta(alpha: number, random: Random): number {
  if (alpha === 1) return random.next();
  const a = sampleGamma(alpha, random);
  const b = sampleGamma(alpha, random);
  return a / (a + b);
}
