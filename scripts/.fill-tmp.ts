import { readFileSync, writeFileSync } from 'node:fs';
import { fillVerdictSpans } from './verdict-spans';
for (const f of process.argv.slice(2)) {
  const { text, problems } = fillVerdictSpans(readFileSync(f, 'utf8'), '/work/main');
  if (problems.length) console.log(f, problems);
  writeFileSync(f, text);
}
