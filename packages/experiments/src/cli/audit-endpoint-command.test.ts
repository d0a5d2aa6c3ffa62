import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { miaNodeArgs, repositoryRoot, type MiaRun } from '../test-utils/run-mia';
import { parseEndpointRecords } from './audit-endpoint-command';

const dir = mkdtempSync(join(tmpdir(), 'mia-audit-endpoint-'));
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

// 16 records of 2 features, 2 classes (x0 > x1); the model answers p_y = 0.95 on the 8 members it
// memorised and 0.5 + |x0 − x1| / 4 (< 0.75) on the others.
const RECORDS = Array.from({ length: 16 }, (_, i) => {
  const features = [((i * 7) % 16) / 16, ((i * 5 + 3) % 16) / 16];
  return { id: `r${i}`, features, label: features[0]! > features[1]! ? 1 : 0, member: i % 2 };
});
const members = new Set(RECORDS.filter((r) => r.member === 1).map((r) => Float32Array.from(r.features).join(',')));
const probabilities = (x: number[]) => {
  const y = x[0]! > x[1]! ? 1 : 0;
  const p = members.has(x.join(',')) ? 0.95 : 0.5 + Math.abs(x[0]! - x[1]!) / 4;
  return y === 1 ? [1 - p, p] : [p, 1 - p];
};

/** A local endpoint counting the queries it answers; `onRequest` may return true to leave a request unanswered. */
async function endpoint(onRequest?: (n: number) => boolean) {
  const answered = new Map<string, number>();
  let requests = 0;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      requests += 1;
      if (onRequest?.(requests) === true) return;
      const body = JSON.parse(text) as { records: Array<{ id: string; features: number[] }> };
      for (const r of body.records) answered.set(`${r.id}|${r.features.join(',')}`, (answered.get(`${r.id}|${r.features.join(',')}`) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ outputs: body.records.map((r) => probabilities(r.features)) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, answered, requests: () => requests };
}

/** Starts `mia` (returns the child at once, so that a test can kill it) and its result. */
function mia(args: readonly string[]): { child: ChildProcess; done: Promise<MiaRun> } {
  const child = spawn(process.execPath, miaNodeArgs('--backend', 'cpu', '--quiet', ...args), { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const done = new Promise<MiaRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { child, done };
}

const recordsFile = join(dir, 'records.jsonl');
writeFileSync(recordsFile, `${RECORDS.map((r) => JSON.stringify(r)).join('\n')}\n`);
const flags = (url: string, cache: string) => [
  'audit-endpoint',
  url,
  '--records',
  recordsFile,
  '--granularity',
  'scores',
  '--budget',
  '160',
  '--batch-size',
  '8',
  '--cache',
  cache,
  '--json',
];
type Report = { rows: Array<{ attack: string; granularity: string; auc: number }>; queries: { used: number; sent: number; fromCache: number } };

describe('mia audit-endpoint', () => {
  it('a run killed mid-audit resumes from its cache file without asking any answered query again', async () => {
    const whole = await endpoint();
    const reference = await mia(flags(whole.url, join(dir, 'whole.jsonl'))).done;
    expect(reference.status, reference.stderr).toBe(0);
    const expected = JSON.parse(reference.stdout) as Report;
    expect(expected.rows.find((r) => r.granularity === 'scores' && r.attack === 'confidence')!.auc).toBe(1);

    // The client sends a request only after it recorded the previous batch: kill it when the 4th arrives, unanswered.
    let run: ReturnType<typeof mia> | undefined;
    const server = await endpoint((n) => n === 4 && run!.child.kill('SIGKILL'));
    const cache = join(dir, 'killed.jsonl');
    run = mia(flags(server.url, cache));
    expect((await run.done).signal).toBe('SIGKILL');
    const recorded = readFileSync(cache, 'utf8').trim().split('\n').length;
    expect(recorded).toBeGreaterThanOrEqual(16);
    appendFileSync(cache, '{"id":"r1","query":"0123'); // an unfinished write: dropped on load
    const resumed = await mia(flags(server.url, cache)).done;
    expect(resumed.status, resumed.stderr).toBe(0);
    const report = JSON.parse(resumed.stdout) as Report;
    expect(report.rows).toEqual(expected.rows);
    expect(report.queries.fromCache).toBe(recorded);
    expect([...server.answered.values()].every((n) => n === 1)).toBe(true);
    expect(server.answered.size).toBe(expected.queries.used);
  }, 240_000);

  it('names the line of a bad record', () => {
    expect(() =>
      parseEndpointRecords('{"id": 1, "features": [0.1], "label": 0, "member": 1}\n{"id": 2, "features": [0.1, 0.2], "label": 1, "member": 0}\n', 'r.jsonl'),
    ).toThrow('r.jsonl:2: "features" must be 1 number like the first record\'s, got [0.1,0.2]');
    expect(() => parseEndpointRecords('\n{"id": 1, "features": [0.1], "label": -1, "member": 1}\n', 'r.jsonl')).toThrow(
      'r.jsonl:2: "label" must be a class label (an integer ≥ 0), got -1',
    );
  });
});
