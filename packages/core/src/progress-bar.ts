/** A one-line terminal progress bar. */
export interface ProgressBar {
  /** Redraws the bar at `done` of `total`, with an optional suffix (loss, ETA...). */
  update(done: number, suffix?: string): void;
  /** Finishes the line. */
  done(suffix?: string): void;
}

function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * A progress bar with ETA written to `process.stderr` when it is a terminal; a no-op elsewhere
 * (CI logs, browsers, workers) unless `force` is set.
 */
export function createProgressBar(label: string, total: number, options: { force?: boolean; width?: number } = {}): ProgressBar {
  const stream = typeof process !== 'undefined' ? process.stderr : undefined;
  const enabled = stream !== undefined && (options.force === true || stream.isTTY === true);
  const width = options.width ?? 24;
  const start = Date.now();
  let lastDraw = 0;
  const draw = (done: number, suffix: string, final: boolean) => {
    if (!enabled || stream === undefined) return;
    const now = Date.now();
    if (!final && now - lastDraw < 100) return;
    lastDraw = now;
    const frac = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(frac * width);
    const elapsed = (now - start) / 1000;
    const eta = frac > 0 ? (elapsed * (1 - frac)) / frac : Infinity;
    const line = `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${formatSeconds(elapsed)}<${formatSeconds(eta)} ${suffix}`;
    stream.write(`\r${line.padEnd(100).slice(0, 160)}${final ? '\n' : ''}`);
  };
  return {
    update: (done, suffix = '') => draw(done, suffix, false),
    done: (suffix = '') => draw(total, suffix, true),
  };
}
