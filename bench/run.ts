// `pnpm bench`: training-step benchmark of the native and wasm engines against PyTorch CPU.
// Flags: see bench/README.md (--models, --steps, --quick, --profile, --engine, --rounds, --out, --no-pin, --stock).
import { main, USAGE } from './main';

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write(
    `usage: pnpm bench [flags]\n  ${USAGE}\n\n` +
      'Times training steps of the native and wasm engines against PyTorch CPU and writes bench/results/<date>.md; ' +
      'every flag is described in bench/README.md. Large score files (mia attack --scores, mia gate): ' +
      'node --conditions=@mia/source --import tsx bench/score-files.ts --help\n',
  );
} else {
  await main(argv);
}
