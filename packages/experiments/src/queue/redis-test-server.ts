// Test helper (not exported): a throwaway redis-server on a random loopback port, no persistence.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** Whether the `redis-server` binary (Debian package `redis-server`) is on PATH. */
export const hasRedisServer = (): boolean => spawnSync('redis-server', ['--version']).status === 0;

/** A free TCP port on 127.0.0.1 (nothing listens on it afterwards). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** Starts `redis-server --bind 127.0.0.1 --save '' --appendonly no` and waits until it accepts connections. */
export async function startRedisServer(): Promise<{ port: number; url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const deadline = Date.now() + 20_000;
  while (!/Ready to accept connections/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start on port ${port}:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return { port, url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}
