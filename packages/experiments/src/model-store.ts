import { join } from 'node:path';
import { resolveCacheDir } from '@mia/data';
import { DirectoryArtifactStore } from './artifact-store';

/**
 * The directory of the default model cache: `models/` under `@mia/data`'s cache directory
 * (`$MIA_CACHE_DIR`, else `~/.cache/mia`), the one resolver every command uses.
 */
export const modelCacheDir = (): string => join(resolveCacheDir(), 'models');

/** The default model cache: a {@link DirectoryArtifactStore} at {@link modelCacheDir}. */
export const defaultModelStore = (): DirectoryArtifactStore => new DirectoryArtifactStore(modelCacheDir());
