import { lowerBound } from '@mia/metrics';

/**
 * RMIA pairwise scores from likelihood ratios `ratios[q][i]` (one row per query): the fraction of
 * population points z with `r(x)/r(z) > γ`, i.e. `r(z) < r(x)/γ`, never counting x against itself
 * (the PMr self-pair correction, done exactly). One query: sort + binary search. Several queries:
 * a pair counts when more than half of the queries vote for it (PMr majority vote), O(n·|Z|·A).
 *
 * @see docs/protocol.md §3.9 "Score", "Memory".
 */
export function rmiaPairwiseScores(ratios: Float64Array[], population: Int32Array, gamma: number): Float64Array {
  const n = ratios[0]!.length;
  const out = new Float64Array(n);
  const inPopulation = new Uint8Array(n);
  for (const z of population) inPopulation[z] = 1;
  if (ratios.length === 1) {
    const r = ratios[0]!;
    const sorted = Float64Array.from(population, (z) => r[z]!).sort();
    for (let i = 0; i < n; i++) {
      let count = lowerBound(sorted, r[i]! / gamma);
      let size = population.length;
      if (inPopulation[i] === 1) {
        if (r[i]! < r[i]! / gamma) count -= 1;
        size -= 1;
      }
      out[i] = size > 0 ? count / size : 0;
    }
    return out;
  }
  for (let i = 0; i < n; i++) {
    let count = 0;
    let size = 0;
    for (const z of population) {
      if (z === i) continue;
      size++;
      let votes = 0;
      for (const r of ratios) if (r[i]! / r[z]! > gamma) votes++;
      if (votes > ratios.length / 2) count++;
    }
    out[i] = size > 0 ? count / size : 0;
  }
  return out;
}
