import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes the files the guides read, as a user following them would have them, into `dir`:
 * `scores.json` (docs/guides/audit-pytorch.md: what the guide's PyTorch snippet exports) — 3
 * classes, 40 members whose true-class logit is larger on average than that of 40 non-members,
 * from a fixed linear congruential sequence (deterministic, no randomness).
 */
export function writeGuideFixtures(dir: string): void {
  let state = 12345;
  const uniform = () => {
    state = (1103515245 * state + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const rows = { labels: [] as number[], isMember: [] as number[], logits: [] as number[][] };
  for (let i = 0; i < 80; i += 1) {
    const member = i < 40 ? 1 : 0;
    const label = i % 3;
    const logits = [0, 1, 2].map(() => Number((2 * uniform() - 1).toFixed(4)));
    logits[label] = Number((logits[label]! + (member ? 2.5 : 1) + uniform()).toFixed(4));
    rows.labels.push(label);
    rows.isMember.push(member);
    rows.logits.push(logits);
  }
  writeFileSync(join(dir, 'scores.json'), JSON.stringify(rows));
}
