import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The cache directory of `@mia/data`: the `cacheDir` argument, else `$MIA_CACHE_DIR`, else
 * `~/.cache/mia` (packages/data/README.md).
 */
export function resolveCacheDir(cacheDir?: string): string {
  if (cacheDir !== undefined && cacheDir !== '') return resolve(cacheDir);
  const fromEnv = process.env['MIA_CACHE_DIR'];
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  return join(homedir(), '.cache', 'mia');
}
