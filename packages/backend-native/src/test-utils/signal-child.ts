// Child process of signals.test.ts: matrix products through the addon (dnnl_sgemm's JIT kernels)
// on `argv[2]` threads for `argv[3]` ms while the parent (or V8's profiler) sends signals. Prints
// "ready" before the loop and one JSON line { calls, signals } after it, then waits 300 ms (the
// parent stops sending when it reads the line; a signal arriving during exit would kill the process).
import { loadNativeAddon } from '../load-native-addon';

let signals = 0;
process.on('SIGUSR2', () => {
  signals++;
});
const addon = loadNativeAddon();
addon.setNumThreads(Number(process.argv[2]));
const [m, n, k] = [128, 64, 100];
const a = new Float32Array(m * k).fill(0.5);
const b = new Float32Array(k * n).fill(0.25);
const c = new Float32Array(m * n);
process.stdout.write('ready\n');
const until = Date.now() + Number(process.argv[3]);
let calls = 0;
while (Date.now() < until) {
  for (let i = 0; i < 20; i++) addon.gemm(false, false, m, n, k, a, b, c, 1, 0, 0);
  calls += 20;
  // Let the event loop run the JS handlers of the signals that arrived.
  await new Promise((resolve) => setImmediate(resolve));
}
if (c[0] !== 0.5 * 0.25 * k) throw new Error(`wrong product ${c[0]}`);
process.stdout.write(`${JSON.stringify({ calls, signals })}\n`);
await new Promise((resolve) => setTimeout(resolve, 300));
