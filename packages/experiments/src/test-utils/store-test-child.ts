// Test helper (not exported, not published): one process of the artifact-store concurrency tests.
// Run as `node --conditions=@mia/source --import tsx test-utils/store-test-child.ts <mode> <root> <key> …`;
// prints one JSON line with what it did.
//   write <root> <key> <tag> <go>         says it is ready, waits for the file <go>, publishes an entry whose bytes say <tag>
//   train <root> <key> <tag> <go> <ms>    the same start; then a unit as trainUnit does it: read, claim, read again, "train" <ms>, write
//   hold <root> <key>                          takes the claim, says so, and waits to be killed
//   die-mid-write <root> <key>                 starts a write and SIGKILLs itself after its first file
import { existsSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

const [mode, root, key, tag = '', go = '', ms = '0'] = process.argv.slice(2) as [string, string, string, string?, string?, string?];
const say = (record: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ pid: process.pid, ...record })}\n`);
/** A start barrier: every process loads first, then all go at once when the parent creates the file. */
async function ready(): Promise<void> {
  say({ ready: true });
  while (!existsSync(go)) await new Promise((r) => setTimeout(r, 2));
}
const filesOf = (text: string) => ({ 'model.bin': new TextEncoder().encode(text.repeat(50_000)), 'members.logits': new TextEncoder().encode(text) });
const tagOf = (entry: { files: Map<string, Uint8Array> } | undefined) =>
  entry === undefined ? undefined : new TextDecoder().decode(entry.files.get('members.logits'));

if (mode === 'die-mid-write') {
  // The real writeFile for the first file (6 MB), then the process is killed as by `kill -9`.
  const original = fsPromises.writeFile;
  let calls = 0;
  fsPromises.writeFile = (async (...args: Parameters<typeof original>) => {
    calls += 1;
    if (calls === 2) process.kill(process.pid, 'SIGKILL');
    return original(...args);
  }) as typeof original;
  syncBuiltinESMExports();
}

const { DirectoryArtifactStore } = await import('../store/artifact-store');
const store = new DirectoryArtifactStore(root);

if (mode === 'write') {
  await ready();
  const outcome = await store.write(key, filesOf(tag), { tag });
  say({ tag, outcome, read: tagOf(await store.read(key)) });
} else if (mode === 'train') {
  await ready();
  let waited = false;
  let outcome = 'hit';
  if ((await store.read(key)) === undefined) {
    const claim = await store.claim(key, { pollMs: 50, onWait: () => (waited = true) });
    try {
      if ((await store.read(key)) !== undefined) outcome = 'hit after waiting';
      else {
        await new Promise((r) => setTimeout(r, Number(ms)));
        outcome = `trained, ${await store.write(key, filesOf(tag), { tag })}`;
      }
    } finally {
      await claim.release();
    }
  }
  say({ tag, outcome, waited, read: tagOf(await store.read(key)) });
} else if (mode === 'hold') {
  await store.claim(key);
  say({ held: key });
  setInterval(() => undefined, 1000);
} else if (mode === 'die-mid-write') {
  await store.write(key, { 'model.bin': new Uint8Array(6 * 1024 * 1024).fill(7), 'members.logits': new Uint8Array(16) }, {});
  say({ error: 'was not killed' });
} else {
  throw new Error(`store-test-child: unknown mode ${JSON.stringify(mode)}`);
}
