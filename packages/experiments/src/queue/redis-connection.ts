import { Redis } from 'ioredis';
import type { QueueAddress } from './queue-url';
import { QueueUnavailableError } from './queue-errors';

/** Options of {@link connectRedis}. */
export interface ConnectRedisOptions {
  /** How long to wait for the first connection and a PING before giving up. @default 3000 */
  readonly timeoutMs?: number;
  /** Who is connecting, for the error message (e.g. `sweep`, `worker`). @default 'queue' */
  readonly context?: string;
}

/**
 * Connects to Redis and checks it answers a PING, failing fast instead of retrying forever; the
 * returned client then reconnects on its own (as BullMQ needs, `maxRetriesPerRequest: null`).
 * @param address - from {@link parseQueueUrl}.
 * @returns a connected ioredis client; the caller closes it with `quit()`.
 * @throws QueueUnavailableError when Redis does not answer within `timeoutMs`, naming `--queue` and the address.
 */
export async function connectRedis(address: QueueAddress, options: ConnectRedisOptions = {}): Promise<Redis> {
  const timeoutMs = options.timeoutMs ?? 3000;
  let connected = false;
  const client = new Redis({
    host: address.host,
    port: address.port,
    db: address.db,
    lazyConnect: true,
    maxRetriesPerRequest: null,
    connectTimeout: timeoutMs,
    // Before the first PING succeeded: no retries (fail fast). Afterwards: back off up to 2 s.
    retryStrategy: (times) => (connected ? Math.min(200 * times, 2000) : null),
  });
  // The socket error (ECONNREFUSED, ENOTFOUND, …) says more than the rejected connect() ("Connection is closed.").
  let socketError: Error | undefined;
  client.on('error', (e: Error) => {
    socketError ??= e;
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      (async () => {
        await client.connect();
        await client.ping();
      })(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    connected = true;
    return client;
  } catch (cause) {
    client.disconnect();
    const why = socketError?.message ?? (cause instanceof Error ? cause.message : String(cause));
    throw new QueueUnavailableError(
      `${options.context ?? 'queue'}: cannot reach Redis at --queue ${address.url} (${why}); is redis-server running there and reachable from this machine?`,
      { cause },
    );
  } finally {
    clearTimeout(timer);
  }
}
