// Entry of the models benchmark: runs bench-models.ts.
// Usage (from the repository root):
//   node --conditions=@mia/source --import tsx packages/models/scripts/bench-models.mjs \
//     [--backend cpu|wasm] [--batch 32] [--steps 3] [--models mlp,small-cnn,...] [--train-models ...]
const { main } = await import('./bench-models.ts');
await main(process.argv.slice(2));
