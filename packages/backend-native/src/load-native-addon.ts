import { BackendError } from '@mia/core';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NativeAddon } from './native-addon';
import { useOpenMpDefaults } from './openmp-environment';

/** ISAs below AVX2, where oneDNN's kernels are not worth the switch from wasm. */
const SLOW_ISAS = new Set(['sse41', 'avx', 'other']);

let cached: { addon?: NativeAddon; reason?: string } | undefined;

/** The package's root folder (`src/` and `dist/` are both one level below it). */
export function packageRoot(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..');
}

function rebuildHint(): string {
  return `build it with \`apt-get install -y libdnnl-dev g++\` then \`node ${join(packageRoot(), 'scripts', 'install.mjs')} --force\``;
}

/** Turns a load failure into the one line a user needs. */
export function explainLoadFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const missingLib = /(lib[\w.+-]+\.so[\w.]*): cannot open shared object file/.exec(message)?.[1];
  if (missingLib !== undefined) {
    if (missingLib.startsWith('libdnnl.so.3'))
      return `the addon needs ${missingLib} (oneDNN 3.x), which is not found: the build of MIA_ONEDNN=source (onednn-3.7.2 in $MIA_CACHE_DIR or ~/.cache/mia) or the system's libdnnl3 was removed; reinstall with MIA_ONEDNN=source, or rebuild against the system's oneDNN with \`node ${join(packageRoot(), 'scripts', 'install.mjs')} --force\``;
    const pkg = missingLib.startsWith('libdnnl')
      ? 'libdnnl2 (or libdnnl-dev)'
      : missingLib.startsWith('libOpenCL')
        ? 'ocl-icd-libopencl1'
        : missingLib.startsWith('libgomp')
          ? 'libgomp1'
          : undefined;
    return `the addon needs ${missingLib}, which is not installed${pkg === undefined ? '' : ` (Debian/Ubuntu: apt-get install ${pkg})`}`;
  }
  if (/No native build was found/.test(message))
    return `the native addon is not built for this platform (${process.platform}-${process.arch}, Node ${process.versions.node}); ${rebuildHint()}`;
  if (/NODE_MODULE_VERSION|was compiled against a different Node\.js version/.test(message))
    return `the addon was built for another Node.js version; ${rebuildHint()}`;
  return message.split('\n')[0] ?? message;
}

/**
 * Loads the compiled addon once per thread (a prebuilt one from `prebuilds/`, else
 * `build/Release/mia_native.node`) and checks that the CPU runs oneDNN's AVX2 (or better) kernels.
 * @returns the addon.
 * @throws BackendError saying why it cannot be used here (not Node, not built, a shared library
 *   missing, a CPU without AVX2); `MIA_NATIVE_ADDON` may point at another `.node` file.
 * @internal
 */
export function loadNativeAddon(): NativeAddon {
  if (cached === undefined) cached = tryLoad();
  if (cached.addon === undefined) throw new BackendError(`@mia/backend-native: ${cached.reason ?? 'unavailable'}`);
  return cached.addon;
}

/** Why the addon cannot be loaded, or undefined when it can. */
export function nativeUnavailableReason(): string | undefined {
  if (cached === undefined) cached = tryLoad();
  return cached.reason;
}

function tryLoad(): { addon?: NativeAddon; reason?: string } {
  if (typeof process === 'undefined' || process.versions?.node === undefined) return { reason: 'runs on Node.js only' };
  const require = createRequire(import.meta.url);
  useOpenMpDefaults();
  let addon: NativeAddon;
  try {
    const explicit = process.env['MIA_NATIVE_ADDON'];
    addon = (
      explicit !== undefined && explicit !== '' ? require(explicit) : (require('node-gyp-build') as (dir: string) => unknown)(packageRoot())
    ) as NativeAddon;
  } catch (error) {
    return { reason: explainLoadFailure(error) };
  }
  const isa = addon.info().isa;
  if (SLOW_ISAS.has(isa)) return { reason: `this CPU has no AVX2 (oneDNN uses ${isa}); the wasm backend is used instead` };
  return { addon };
}
