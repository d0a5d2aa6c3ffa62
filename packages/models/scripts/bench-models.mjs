// Entry of the models benchmark: registers the tfjs ESM resolve hook, then runs bench-models.ts.
// Usage (from the repository root):
//   node --conditions=@mia/source --import tsx packages/models/scripts/bench-models.mjs \
//     [--backend cpu|wasm] [--batch 32] [--steps 3] [--models mlp,small-cnn,...] [--train-models ...]
import { register } from 'node:module';

register('./esm-resolve-hook.mjs', import.meta.url);
const { main } = await import('./bench-models.ts');
await main(process.argv.slice(2));
