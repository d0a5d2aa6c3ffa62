import * as tf from '@tensorflow/tfjs-core';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AbortError, seededRandom } from '@mia/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useCpu } from '../test-utils/setup';
import { auditEndpoint, EndpointError, memoryQueryCache, parseEndpointCache, endpointCacheLines, type EndpointAuditReport } from '../index';

beforeAll(useCpu);

// 20 records of 4 features and 3 classes; the endpoint's model is linear (softmax of W·x + b, every
// record classified correctly: its label is that argmax) except that it memorised the 10 members:
// for those it answers p_y = 0.97. Non-members get the linear softmax, whose p_y is below 0.6 here.
const W = [
  [1, -1, 0.5, 0],
  [-0.5, 1, 0, 0.5],
  [0, 0, -1, 1],
];
const random = seededRandom(3);
const FEATURES = Array.from({ length: 20 }, () => Array.from({ length: 4 }, () => Math.round(random.next() * 100) / 100));
const linear = (x: readonly number[]) => {
  const z = W.map((w) => w.reduce((a, v, j) => a + v * x[j]!, 0));
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e.reduce((a, v) => a + v, 0);
  return e.map((v) => v / s);
};
const argmax = (p: readonly number[]) => p.indexOf(Math.max(...p));
const LABELS = FEATURES.map((x) => argmax(linear(x)));
const IS_MEMBER = FEATURES.map((_, i) => (i % 2 === 0 ? 1 : 0));
const IDS = FEATURES.map((_, i) => `r${i}`);
const memorised = new Set(FEATURES.filter((_, i) => IS_MEMBER[i] === 1).map((x) => Float32Array.from(x).join(',')));

interface Body {
  output: { granularity: string; topK?: number; decimals?: number };
  records: Array<{ id: string; features: number[] }>;
}
/** The model's answer to one query at the requested granularity. */
function answer(features: number[], output: Body['output']): unknown {
  const linearP = linear(features);
  const y = argmax(linearP);
  const p = memorised.has(features.join(',')) ? linearP.map((_, j) => (j === y ? 0.97 : 0.015)) : linearP;
  if (output.granularity === 'label') return argmax(p);
  if (output.granularity === 'rounded') return p.map((v) => Math.round(v * 10 ** output.decimals!) / 10 ** output.decimals!);
  if (output.granularity === 'top-k') {
    const order = p.map((_, j) => j).sort((a, b) => p[b]! - p[a]!);
    return { labels: order.slice(0, output.topK), scores: order.slice(0, output.topK).map((j) => p[j]!) };
  }
  return p;
}

/** A local endpoint that counts every query it answers, by record and input; `misbehave` may fail or stall a request. */
async function endpoint(misbehave?: (body: Body, request: number, response: ServerResponse) => boolean) {
  const hits = new Map<string, number>();
  let requests = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as Body;
      requests += 1;
      if (misbehave?.(body, requests, res) === true) return;
      for (const r of body.records) hits.set(`${r.id}|${r.features.join(',')}`, (hits.get(`${r.id}|${r.features.join(',')}`) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ outputs: body.records.map((r) => answer(r.features, body.output)) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/predict`, hits, requests: () => requests };
}
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
});

const records = () => ({ x: tf.tensor2d(FEATURES), y: LABELS, isMember: IS_MEMBER, ids: IDS });
const audit = async (url: string, options: Partial<Parameters<typeof auditEndpoint>[2]> = {}) => {
  const data = records();
  try {
    return await auditEndpoint(url, data, { granularity: 'scores', budget: 300, batchSize: 16, initEvals: 4, initTrials: 10, backoffMs: 5, ...options });
  } finally {
    data.x.dispose();
  }
};
const rowOf = (report: EndpointAuditReport, granularity: string, attack: string) =>
  report.rows.find((r) => r.granularity === granularity && r.attack === attack)!;

describe('auditEndpoint on a local HTTP endpoint', () => {
  it('says which granularity leaks: the memorised confidence shows in scores, rounded and top-k answers, not in labels', async () => {
    const server = await endpoint();
    const report = await audit(server.url, { topK: 1, decimals: 1 });
    expect(report.members).toBe(10);
    // Members answer p_y = 0.97, non-members p_y < 0.6: confidence separates them at every granularity that carries a score.
    for (const g of ['scores', 'rounded', 'top-k']) expect(rowOf(report, g, 'confidence')).toMatchObject({ auc: 1, advantage: 1, queries: 20 });
    expect(rowOf(report, 'rounded', 'confidence').derived).toBe(true);
    // Every record is classified correctly: correctness cannot tell them apart.
    expect(rowOf(report, 'label', 'correctness')).toMatchObject({ auc: 0.5, advantage: 0 });
    expect(report.leakage.map((l) => [l.granularity, l.advantage > 0.99])).toEqual([
      ['scores', true],
      ['rounded', true],
      ['top-k', true],
      ['label', false],
    ]);
    // Cost order: the metric attacks on the 20 clean answers, then the label-only attack with ⌊300 / 20⌋ = 15 queries per record.
    const last = report.rows.at(-1)!;
    expect(last).toMatchObject({ attack: 'boundary-distance', granularity: 'label' });
    expect(last.queries).toBeGreaterThan(20);
    expect(last.queries).toBeLessThanOrEqual(300);
    // Every distinct query reached the server exactly once, and the counts say so.
    expect(report.queries).toEqual({ used: last.queries, sent: last.queries, fromCache: 0, resent: 0, budget: 300 });
    expect([...server.hits.values()].every((n) => n === 1)).toBe(true);
    expect(server.hits.size).toBe(last.queries);
  }, 60_000);

  it('reads label-only answers and validates them, naming the record', async () => {
    const server = await endpoint();
    const report = await audit(server.url, { granularity: 'label', labelOnly: false });
    expect(report.rows.map((r) => `${r.granularity}/${r.attack}`)).toEqual(['label/correctness']);
    expect(report.notes).toEqual(['boundary-distance not run: labelOnly is false']);
    const wrong = await endpoint((body, _n, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ outputs: body.records.map((r) => (r.id === 'r3' ? 'cat' : 0)) }));
      return true;
    });
    await expect(audit(wrong.url, { granularity: 'label' })).rejects.toThrow(
      /the endpoint's answer for record "r3" must be a class label \(a non-negative integer\) \(granularity label\), got "cat"/,
    );
  });

  it('retries a failing request with backoff, and names the record whose requests keep failing or time out', async () => {
    // 503 twice for any request holding r5, then answers: the audit goes through, with the same numbers.
    const failures = new Map<string, number>();
    const flaky = await endpoint((body, _n, res) => {
      if (!body.records.some((r) => r.id === 'r5') || (failures.get('r5') ?? 0) >= 2) return false;
      failures.set('r5', (failures.get('r5') ?? 0) + 1);
      res.writeHead(503).end('busy');
      return true;
    });
    const steady = await endpoint();
    const [a, b] = [await audit(flaky.url, { labelOnly: false }), await audit(steady.url, { labelOnly: false })];
    expect(a.rows).toEqual(b.rows);
    expect(flaky.requests()).toBe(steady.requests() + 2);
    // The two retries re-sent r5's batch (r0–r15, batch size 16) each time: what a quota on the endpoint's side would count.
    expect(a.queries.resent).toBe(2 * 16);
    expect(b.queries.resent).toBe(0);
    // r7 never gets an answer: after 3 attempts its batch of 4 (r4–r7) is split in halves down to r7, the others are answered, and the error names r7.
    const stalled = await endpoint((body) => body.records.some((r) => r.id === 'r7'));
    const started = Date.now();
    const error = await audit(stalled.url, { batchSize: 4, retries: 2, timeoutMs: 100, labelOnly: false }).catch((e: unknown) => e);
    expect(EndpointError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('auditEndpoint: the endpoint failed on record "r7" after 3 attempts: no answer within 100 ms');
    expect(Date.now() - started).toBeLessThan(10_000);
    // The batches before r7's, and its batch-mates, were answered; nothing after the failure was sent.
    expect([...stalled.hits.keys()].map((k) => k.split('|')[0])).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    const refused = await endpoint((_body, _n, res) => (res.writeHead(400).end('bad features'), true));
    await expect(audit(refused.url, { batchSize: 32, labelOnly: false })).rejects.toThrow(
      /failed on record "r0" after 1 attempt: POST .* answered HTTP 400: bad features/,
    );
  }, 60_000);

  it('an aborted audit resumes from its cache without sending any query twice, with the numbers of an uninterrupted one', async () => {
    const whole = await audit((await endpoint()).url);
    const controller = new AbortController();
    // The server asks for the abort while it answers its 4th request (in the label-only phase): that answer is still recorded.
    const server = await endpoint((_body, n) => (n === 4 && controller.abort(), false));
    const cache = memoryQueryCache();
    await expect(audit(server.url, { cache, signal: controller.signal })).rejects.toThrow(AbortError);
    const before = server.requests();
    expect(cache.entries.length).toBeGreaterThan(20);
    const resumed = await audit(server.url, { cache });
    expect(server.requests()).toBeGreaterThan(before);
    expect([...server.hits.values()].every((n) => n === 1)).toBe(true);
    expect(resumed.rows).toEqual(whole.rows);
    // The two sessions together sent each query of the uninterrupted audit once.
    expect(server.hits.size).toBe(whole.queries.used);
    expect(resumed.queries.fromCache).toBeGreaterThan(20);
    expect(resumed.queries.sent + resumed.queries.fromCache).toBe(whole.queries.used);
    // A third run sends nothing.
    const requests = server.requests();
    expect((await audit(server.url, { cache })).rows).toEqual(whole.rows);
    expect(server.requests()).toBe(requests);
  }, 60_000);

  it('validates its options whole before any query', async () => {
    const server = await endpoint();
    await expect(audit(server.url, { budget: 19 })).rejects.toThrow('auditEndpoint: budget must allow one query per record (20), got 19');
    await expect(audit(server.url, { granularity: 'logits' as never, batchSize: 0, retrys: 2 } as never)).rejects.toThrow(
      /retrys must be one of the options .*; auditEndpoint: granularity must be one of .*got "logits"; auditEndpoint: batchSize must be an integer ≥ 1, got 0/,
    );
    expect(server.requests()).toBe(0);
  });
});

describe('the JSONL cache', () => {
  it('keeps every complete line and drops the unfinished last one of a killed writer', () => {
    const lines = endpointCacheLines([
      { id: 'a', query: 'q1', answer: [0.1, 0.9] },
      { id: 'b', query: 'q2', answer: 2 },
    ]);
    expect(parseEndpointCache(lines)).toEqual({
      entries: [
        { id: 'a', query: 'q1', answer: [0.1, 0.9] },
        { id: 'b', query: 'q2', answer: 2 },
      ],
      complete: lines.length,
    });
    const cut = `${lines}{"id":"c","que`;
    expect(parseEndpointCache(cut)).toEqual({ entries: parseEndpointCache(lines).entries, complete: lines.length });
    expect(() => parseEndpointCache(`${lines}{"id": 3}\n`, 'audit.jsonl')).toThrow(
      'audit.jsonl:3: must be {"id": string, "query": string, "answer": …}, got {"id":3}',
    );
  });
});
