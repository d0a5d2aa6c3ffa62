import { BackendError } from '@mia/core';
import { version_wasm } from '@tensorflow/tfjs-backend-wasm';
import { version_core } from '@tensorflow/tfjs-core';

/**
 * The tfjs versions whose wasm backend internals (`makeOutput`, `typedArrayFromHeap`,
 * `disposeData`, kernel attribute names) the training kernels were checked against.
 */
export const supportedTfjsRange = '>=4.22.0 <4.23.0';

/** Versions of the two tfjs packages the kernels depend on. */
export interface TfjsVersions {
  /** `@tensorflow/tfjs-core` version. */
  core: string;
  /** `@tensorflow/tfjs-backend-wasm` version. */
  wasm: string;
}

/** The installed tfjs-core and tfjs-backend-wasm versions. */
export function installedTfjsVersions(): TfjsVersions {
  return { core: version_core, wasm: version_wasm };
}

const inRange = (version: string): boolean => /^4\.22\.\d+$/.test(version);

/**
 * Checks that tfjs-core and tfjs-backend-wasm are inside {@link supportedTfjsRange}.
 *
 * @param versions - versions to check (default: the installed ones).
 * @returns the checked versions.
 * @throws BackendError naming the package and version when one is outside the range.
 */
export function checkTfjsVersion(versions: TfjsVersions = installedTfjsVersions()): TfjsVersions {
  for (const [pkg, version] of [
    ['@tensorflow/tfjs-core', versions.core],
    ['@tensorflow/tfjs-backend-wasm', versions.wasm],
  ] as const) {
    if (!inRange(version)) {
      throw new BackendError(
        `@mia/backend-wasm: ${pkg} must be ${supportedTfjsRange} (the backend internals the training kernels use were checked against it), got ${version}`,
      );
    }
  }
  return versions;
}
