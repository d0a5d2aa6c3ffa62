/**
 * Cheap difficulty proxy for the stand-ins: a naive-Bayes classifier (the generator's own model
 * family, Laplace-smoothed) fitted on 10 000 records and tested on 3 000. Used to pick `keep`
 * before confirming with the MLP (tune-stand-ins.ts), which costs ~100× more CPU.
 *
 *   cd packages/data && pnpm exec vite-node -c ../../vitest.config.ts scripts/naive-bayes-proxy.ts purchaseLike 0.15 0.18
 */
import { purchaseLike, texasLike } from '../src/datasets/stand-ins';
const kind = process.argv[2] as 'purchaseLike' | 'texasLike';
for (const keep of process.argv.slice(3).map(Number)) {
  const make = kind === 'purchaseLike' ? purchaseLike : texasLike;
  const ntr = 10000,
    nte = 3000;
  const d = make({ size: ntr + nte, seed: 1, overrides: { keep } });
  const F = d.numFeatures,
    C = 100;
  const ones = new Float64Array(C * F),
    counts = new Float64Array(C);
  for (let i = 0; i < ntr; i++) {
    const c = d.y[i]!;
    counts[c] = counts[c]! + 1;
    for (let j = 0; j < F; j++) ones[c * F + j] = ones[c * F + j]! + d.features[i * F + j]!;
  }
  const l1 = new Float64Array(C * F),
    l0 = new Float64Array(C * F);
  for (let c = 0; c < C; c++)
    for (let j = 0; j < F; j++) {
      const p = (ones[c * F + j]! + 1) / (counts[c]! + 2);
      l1[c * F + j] = Math.log(p);
      l0[c * F + j] = Math.log(1 - p);
    }
  let ok = 0;
  for (let i = ntr; i < ntr + nte; i++) {
    let best = -Infinity,
      arg = -1;
    for (let c = 0; c < C; c++) {
      let s = 0;
      for (let j = 0; j < F; j++) s += d.features[i * F + j] ? l1[c * F + j]! : l0[c * F + j]!;
      if (s > best) {
        best = s;
        arg = c;
      }
    }
    if (arg === d.y[i]) ok++;
  }
  console.log(kind, keep, 'NB test acc', (ok / nte).toFixed(3));
}
