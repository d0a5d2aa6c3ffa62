// The committed reproductions (examples/<paper>/results/<name>-<scale>/reproduction.json), which of
// them were measured with an earlier plan than their reproduction's current one, and the census of
// their claims as the root README's <!-- census --> block shows it. Used by scripts/readme-results.ts
// and test/docs-consistency.test.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfigChangedError,
  claimCensus,
  claimCensusMarkdown,
  replayReproduction,
  type Reproduction,
  type StoredReproductionResult,
} from '@mia/experiments/reproduce';
import { reproductions as ccl } from '@mia/example-ccl';
import { reproductions as crl } from '@mia/example-crl';
import { reproductions as dp } from '@mia/example-dp';
import { reproductions as past } from '@mia/example-past';
import { reproductions as sam } from '@mia/example-sam';

/** The share of the papers' claims the census aims to see decided. */
export const CENSUS_TARGET = 0.6;

/** One committed reproduction.json: its directory and its parsed content. */
export interface CommittedResult {
  readonly dir: string;
  readonly stored: StoredReproductionResult;
}

/** Every committed reproduction.json under examples/*\/results/, examples and results in name order. */
export function committedResults(root: string): CommittedResult[] {
  const found: CommittedResult[] = [];
  for (const example of readdirSync(join(root, 'examples')).sort()) {
    const results = join(root, 'examples', example, 'results');
    if (!existsSync(results)) continue;
    for (const name of readdirSync(results).sort()) {
      const file = join(results, name, 'reproduction.json');
      if (existsSync(file)) found.push({ dir: join(results, name), stored: JSON.parse(readFileSync(file, 'utf8')) as StoredReproductionResult });
    }
  }
  return found;
}

const REPRODUCTIONS = new Map<string, Reproduction>([...ccl, ...crl, ...dp, ...past, ...sam].map((r) => [r.name, r]));

/**
 * The directories of the committed results whose runs the reproduction's current plan no longer
 * matches (another config, or runs it did not store such as more training seeds): replaying the
 * claim builders on the stored runs says so (ConfigChangedError).
 */
export async function earlierPlanDirs(committed: readonly CommittedResult[]): Promise<Set<string>> {
  const earlier = new Set<string>();
  for (const { dir, stored } of committed) {
    const reproduction = REPRODUCTIONS.get(stored.name);
    if (reproduction === undefined) continue;
    try {
      await replayReproduction(reproduction, { dir });
    } catch (error) {
      if (error instanceof ConfigChangedError) earlier.add(dir);
    }
  }
  return earlier;
}

/** The root README's census block (between <!-- census --> and <!-- /census -->) for the committed results. */
export function censusBlock(committed: readonly CommittedResult[], earlier: ReadonlySet<string>): string {
  const staleKeys = new Set(committed.filter((c) => earlier.has(c.dir)).map((c) => `${c.stored.name} ${c.stored.scale}`));
  const census = claimCensus(
    committed.map((c) => c.stored),
    { stale: (r) => staleKeys.has(`${r.name} ${r.scale}`) },
  );
  return claimCensusMarkdown(census, { target: CENSUS_TARGET });
}
