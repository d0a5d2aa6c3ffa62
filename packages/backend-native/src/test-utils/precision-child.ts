// Child process of the precision tests: `useNativeTraining({ precision: argv[2] })` (or MIA_PRECISION
// when argv[2] is "env"), then one JSON line: { precision, reason, isa, bf16 } or { error, name }.
// Run with DNNL_MAX_CPU_ISA set to see what a CPU without bf16 dot products does.
import { nativeBackendInfo, useNativeTraining } from '../use-native-training';
import type { PrecisionChoice } from '../resolve-precision';

const choice = process.argv[2];
try {
  const { addon } = await useNativeTraining(choice === 'env' ? { threads: 1 } : { threads: 1, precision: choice as PrecisionChoice });
  const info = nativeBackendInfo();
  process.stdout.write(
    `${JSON.stringify({ precision: addon.precision, reason: addon.precisionReason, isa: info.isa, bf16: info.bf16, info: info.precision })}\n`,
  );
} catch (error) {
  process.stdout.write(`${JSON.stringify({ name: (error as Error).name, error: (error as Error).message })}\n`);
}
