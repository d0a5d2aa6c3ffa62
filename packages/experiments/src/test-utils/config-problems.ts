import { parseExperimentConfig } from '../config/parse-config';

/**
 * The problem lines `parseExperimentConfig` reports for `config` (one per problem, without the
 * heading line), or none when it parses. For tests of what a config's validation says.
 */
export function configProblems(config: Record<string, unknown>): string[] {
  try {
    parseExperimentConfig(config);
  } catch (error) {
    return (error as Error).message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
  }
  return [];
}
