import { createRequire } from 'node:module';

const PACKAGES = [
  '@mia/core',
  '@mia/data',
  '@mia/models',
  '@mia/metrics',
  '@mia/attacks',
  '@mia/defense-ccl',
  '@mia/defense-crl',
  '@mia/defense-past',
  '@mia/sam',
  '@mia/defense-baselines',
  '@mia/experiments',
  '@tensorflow/tfjs-core',
];

/** Versions of the packages whose code decides a trained model; part of every cache key. */
export function packageVersions(): Record<string, string> {
  const require = createRequire(import.meta.url);
  const out: Record<string, string> = {};
  for (const name of PACKAGES) {
    try {
      out[name] = (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      out[name] = 'absent';
    }
  }
  return out;
}
