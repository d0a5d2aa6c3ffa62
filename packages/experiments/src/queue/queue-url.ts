import { InvalidArgumentError } from '@mia/core';

/** Where the job queue lives: a Redis server and database. */
export interface QueueAddress {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  /** The normalized URL, `redis://host:port/db`. */
  readonly url: string;
}

const EXPECTED = 'redis://host:port[/db] (e.g. redis://127.0.0.1:6379/0)';

/**
 * Parses the `--queue` URL of `mia sweep` and `mia worker`.
 * @param url - `redis://host:port[/db]`; the database defaults to 0.
 * @param option - the option name to put in error messages. @default '--queue'
 * @returns host, port, database and the normalized URL.
 * @throws InvalidArgumentError naming the option, the expected form and the value given.
 */
export function parseQueueUrl(url: string, option = '--queue'): QueueAddress {
  const fail = (why: string): never => {
    throw new InvalidArgumentError(`${option} must be ${EXPECTED}; ${why}, got ${JSON.stringify(url)}`);
  };
  if (typeof url !== 'string' || url.trim() === '') fail('it is empty');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('it is not a URL');
  }
  if (parsed.protocol !== 'redis:') fail(`the scheme is ${JSON.stringify(parsed.protocol.replace(/:$/, ''))}`);
  if (parsed.username !== '' || parsed.password !== '') fail('credentials in the URL are not supported (bind Redis to a private network instead)');
  if (parsed.search !== '' || parsed.hash !== '') fail('query strings and fragments are not supported');
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') fail('the host is missing');
  if (parsed.port === '') fail('the port is missing');
  const port = Number(parsed.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail('the port must be 1–65535');
  const path = parsed.pathname.replace(/\/$/, '');
  if (path !== '' && !/^\/\d{1,2}$/.test(path)) fail(`the database ${JSON.stringify(path.slice(1))} must be an integer 0–15`);
  const db = path === '' ? 0 : Number(path.slice(1));
  if (db > 15) fail('the database must be an integer 0–15');
  return { host, port, db, url: `redis://${parsed.host}/${db}` };
}
