import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@mia/core';
import { parseQueueUrl } from './queue-url';

describe('parseQueueUrl', () => {
  it('parses host, port and database; the database defaults to 0', () => {
    expect(parseQueueUrl('redis://127.0.0.1:6379/2')).toEqual({ host: '127.0.0.1', port: 6379, db: 2, url: 'redis://127.0.0.1:6379/2' });
    expect(parseQueueUrl('redis://queue.lab:7000')).toEqual({ host: 'queue.lab', port: 7000, db: 0, url: 'redis://queue.lab:7000/0' });
    expect(parseQueueUrl('redis://[::1]:6380/')).toEqual({ host: '::1', port: 6380, db: 0, url: 'redis://[::1]:6380/0' });
  });

  it('rejects malformed URLs naming --queue, the expected form and the value', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /it is empty/],
      ['localhost:6379', /the scheme is "localhost"/],
      ['http://127.0.0.1:6379', /the scheme is "http"/],
      ['redis://127.0.0.1', /the port is missing/],
      ['redis://:6379', /not a URL|host is missing/],
      ['redis://127.0.0.1:6379/abc', /database "abc" must be an integer/],
      ['redis://127.0.0.1:6379/16', /database must be an integer 0–15/],
      ['redis://user:secret@127.0.0.1:6379', /credentials/],
      ['redis://127.0.0.1:6379/0?tls=1', /query strings/],
      ['not a url', /not a URL/],
    ];
    for (const [url, why] of cases) {
      let error: unknown;
      try {
        parseQueueUrl(url);
      } catch (e) {
        error = e;
      }
      expect(InvalidArgumentError.isInstance(error), url).toBe(true);
      expect((error as Error).message).toMatch(/^--queue must be redis:\/\/host:port\[\/db\]/);
      expect((error as Error).message).toMatch(why);
      expect((error as Error).message).toContain(`got ${JSON.stringify(url)}`);
    }
    expect(() => parseQueueUrl('ftp://x:1', '--redis')).toThrow(/^--redis must be/);
  });
});
