// `pnpm bench`: training-step benchmark of the native and wasm engines against PyTorch CPU.
// Flags: see bench/README.md (--models, --steps, --quick, --profile, --engine, --rounds, --out, --no-pin, --stock).
import { main } from './main';

await main(process.argv.slice(2));
