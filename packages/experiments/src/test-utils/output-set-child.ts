// Test helper (not exported, not published): a `mia run` killed while it writes its outputs.
// Run as `node --conditions=@mia/source --import tsx test-utils/output-set-child.ts <dir> <tag> <step>`:
// writes exposure.csv, report.md and results.json holding <tag> as one set (`writeOutputSet`) and
// SIGKILLs itself right after the commit step named <step> (e.g. `renamed exposure.csv`), as `kill -9` would.
import { writeOutputSet } from '../report/output-set';

const [dir, tag, crashAt] = process.argv.slice(2) as [string, string, string];
await writeOutputSet(
  dir,
  ['exposure.csv', 'report.md', 'results.json'].map((name) => ({ name, content: `${tag} ${name}` })),
  {
    onStep: (step) => {
      if (step === crashAt || (crashAt.endsWith('*') && step.startsWith(crashAt.slice(0, -1)))) process.kill(process.pid, 'SIGKILL');
    },
  },
);
process.stdout.write('finished\n');
