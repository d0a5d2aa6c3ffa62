#!/usr/bin/env node
// The `mia` command: starts the built CLI (dist/cli.js). A committed launcher rather than a `bin`
// pointing into dist/, so that installing the workspace before a build can link the command
// (docs/decisions/0042-shared-cache-claims-and-installable-cli.md).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'mia: @mia/experiments is not built (dist/cli.js is missing). In the repository, run `pnpm build`, or use `pnpm mia …`, which runs the sources.\n',
  );
  process.exit(1);
}
await import(cli.href);
