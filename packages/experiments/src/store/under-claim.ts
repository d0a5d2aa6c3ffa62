import type { ArtifactStore } from './artifact-store';

/**
 * Runs `compute` holding the store's claim on `key` (a store without claims: just runs it), unless
 * `load` finds the entry once the claim is ours, i.e. another process finished it while this one
 * waited. `label` names the unit in the "waiting" log line. @internal
 */
export async function underClaim<T>(
  store: ArtifactStore,
  key: string,
  label: string,
  options: { readonly onLog?: ((line: string) => void) | undefined; readonly signal?: AbortSignal | undefined },
  load: () => Promise<T | undefined>,
  compute: () => Promise<T>,
): Promise<T> {
  const claim = await store.claim?.(key, {
    onWait: (h) => options.onLog?.(`waiting    ${label}: pid ${h.pid} on ${h.host} is training it (${key.slice(0, 12)})`),
    signal: options.signal,
  });
  try {
    const done = claim === undefined ? undefined : await load();
    return done ?? (await compute());
  } finally {
    await claim?.release();
  }
}
