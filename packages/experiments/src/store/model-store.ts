import { join } from 'node:path';
import { resolveCacheDir } from '@mia/data';
import { DirectoryArtifactStore } from './artifact-store';

/**
 * The directory of the default model cache: `models/` under `@mia/data`'s cache directory
 * (`$MIA_CACHE_DIR`, else `~/.cache/mia`), the one resolver every command uses.
 */
export const modelCacheDir = (): string => join(resolveCacheDir(), 'models');

/** What to do when the default model cache is not writable: the option and the variable that move it. */
export const MOVE_CACHE_HINT =
  'use another cache directory with --cache-dir <dir> (CLI) or the environment variable MIA_CACHE_DIR=<dir> (default ~/.cache/mia)';

/** The default model cache: a {@link DirectoryArtifactStore} at {@link modelCacheDir}; its not-writable error says how to move it. */
export const defaultModelStore = (): DirectoryArtifactStore => new DirectoryArtifactStore(modelCacheDir(), { notWritableHint: MOVE_CACHE_HINT });
