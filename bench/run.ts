// `pnpm bench`: training-step benchmark of @mia/backend-wasm against stock tfjs and PyTorch CPU.
// Flags: --models purchase,smallcnn,resnet18  --steps N  --quick  --profile  --out name (see bench/README.md).
import { main } from './main';

await main(process.argv.slice(2));
