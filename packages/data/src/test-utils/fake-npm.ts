import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes a stand-in `npm` executable into `dir`: with `content` it writes that text as
 * `pkg-1.0.0.tgz` into the `--pack-destination` directory (its 4th argument); without, it fails
 * like the registry answering 404.
 */
export async function fakeNpm(dir: string, content: string | undefined): Promise<string> {
  const path = join(dir, 'fake-npm.sh');
  const body =
    content === undefined ? 'echo "npm error 404 Not Found - GET https://registry.npmjs.org/pkg" >&2; exit 1' : `printf '%s' '${content}' > "$4/pkg-1.0.0.tgz"`;
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}
