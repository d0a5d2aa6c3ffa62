import { InvalidDatasetError, describeValue } from '@mia/core';

/** One recorded query: the record it belongs to, the query's key ({@link queryKey} of its input) and the endpoint's raw answer. */
export interface EndpointCacheEntry {
  readonly id: string;
  readonly query: string;
  readonly answer: unknown;
}

/**
 * Where an endpoint audit keeps the answers it paid for, so that an interrupted audit resumes without
 * sending any query twice: `load` gives every answer recorded so far, `append` records one batch's
 * answers and resolves once they are stored. `mia audit-endpoint --cache <file>` keeps them in an
 * append-only JSONL file ({@link endpointCacheLines}, {@link parseEndpointCache}); use one cache per
 * endpoint and granularity.
 */
export interface EndpointQueryCache {
  load(): Iterable<EndpointCacheEntry> | Promise<Iterable<EndpointCacheEntry>>;
  append(entries: readonly EndpointCacheEntry[]): void | Promise<void>;
}

/** An {@link EndpointQueryCache} in memory (for a browser, or an audit resumed in the same process); `entries` is what it holds. */
export function memoryQueryCache(entries: EndpointCacheEntry[] = []): EndpointQueryCache & { readonly entries: EndpointCacheEntry[] } {
  return {
    entries,
    load: () => [...entries],
    append: (batch) => void entries.push(...batch),
  };
}

/** The JSONL lines of a batch of entries, each `{"id", "query", "answer"}` and each ending with a newline (write them in one append). */
export function endpointCacheLines(entries: readonly EndpointCacheEntry[]): string {
  return entries.map((e) => `${JSON.stringify({ id: e.id, query: e.query, answer: e.answer })}\n`).join('');
}

/**
 * Parses a cache file written with {@link endpointCacheLines}. A last line without its newline is
 * the unfinished write of a killed process: it is left out (`complete` is the length of the text up
 * to the last newline, where the next append must start).
 * @throws InvalidDatasetError naming the line of any other line that is not an entry.
 */
export function parseEndpointCache(text: string, source = 'cache'): { entries: EndpointCacheEntry[]; complete: number } {
  const complete = text.lastIndexOf('\n') + 1;
  const entries: EndpointCacheEntry[] = [];
  text
    .slice(0, complete)
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new InvalidDatasetError(`${source}:${i + 1}: not valid JSON (${(error as Error).message})`, { cause: error });
      }
      const { id, query, answer } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
      if (typeof id !== 'string' || typeof query !== 'string' || answer === undefined)
        throw new InvalidDatasetError(`${source}:${i + 1}: must be {"id": string, "query": string, "answer": …}, got ${describeValue(value)}`);
      entries.push({ id, query, answer });
    });
  return { entries, complete };
}

/**
 * The key of one query input (the row of features sent): 16 hex digits of two independent 32-bit
 * multiplicative hashes of its float32 bytes and its length. The same input gives the same key in
 * every run, so a resumed audit finds the answers of the queries it repeats.
 */
export function queryKey(row: Float32Array): string {
  const words = new Uint32Array(row.buffer, row.byteOffset, row.length);
  let h1 = 0xdeadbeef ^ row.length;
  let h2 = 0x41c6ce57 ^ row.length;
  for (const w of words) {
    h1 = Math.imul(h1 ^ w, 2654435761);
    h2 = Math.imul(h2 ^ w, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}
