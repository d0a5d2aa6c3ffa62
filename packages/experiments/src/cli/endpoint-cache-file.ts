// The answer cache of `mia audit-endpoint --cache <file>`: append-only JSONL, one write per batch.
import { open, readFile, truncate } from 'node:fs/promises';
import { endpointCacheLines, parseEndpointCache, type EndpointQueryCache } from '@mia/attacks';
import { cannotRead } from './read-score-file';

/**
 * An endpoint audit's answers in an append-only JSONL file (`{"id", "query", "answer"}` a line):
 * each batch is appended with one write and flushed to disk before the audit goes on, so a killed
 * audit loses at most the batch it was writing. Loading drops (and truncates away) a last line left
 * unfinished by such a kill. One audit at a time per file; one file per endpoint and granularity.
 */
export function fileQueryCache(path: string): EndpointQueryCache {
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw cannotRead('audit-endpoint', '--cache', path, error);
      }
      const { entries, complete } = parseEndpointCache(text, path);
      if (complete < text.length) await truncate(path, Buffer.byteLength(text.slice(0, complete)));
      return entries;
    },
    async append(entries) {
      const handle = await open(path, 'a');
      try {
        await handle.write(endpointCacheLines(entries));
        await handle.datasync();
      } finally {
        await handle.close();
      }
    },
  };
}
