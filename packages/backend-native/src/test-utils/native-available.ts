import { describe, it } from 'vitest';
import { nativeUnavailableReason } from '../load-native-addon';

/** What the native tests do here: run, skip (addon not built), or fail (addon required but missing). */
export type NativeTestMode = 'run' | 'skip' | 'fail';

/**
 * The mode of the native tests: `run` when the addon loads (`reason` undefined); otherwise `fail` when
 * the environment variable `MIA_REQUIRE_NATIVE` is `1` (CI, where oneDNN is installed), else `skip`.
 */
export function nativeTestMode(reason: string | undefined, env: NodeJS.ProcessEnv = process.env): NativeTestMode {
  if (reason === undefined) return 'run';
  return env['MIA_REQUIRE_NATIVE'] === '1' ? 'fail' : 'skip';
}

/** Why the addon is unavailable here (undefined when it loads). */
export const nativeSkipReason = nativeUnavailableReason();

const mode = nativeTestMode(nativeSkipReason);

/**
 * `describe` for suites that need the compiled addon: the suite runs when the addon loads. When it
 * does not, the suite is skipped with the reason in its name and on stderr, or, with
 * `MIA_REQUIRE_NATIVE=1`, replaced by one test that fails with the reason.
 */
export function describeNative(name: string, body: () => void): void {
  if (mode === 'run') {
    describe(name, body);
  } else if (mode === 'fail') {
    describe(name, () => {
      it('needs the native addon (MIA_REQUIRE_NATIVE=1)', () => {
        throw new Error(`MIA_REQUIRE_NATIVE=1 but the native addon cannot be loaded: ${nativeSkipReason ?? ''}`);
      });
    });
  } else {
    process.stderr.write(
      `@mia/backend-native tests skipped ("${name}"): the native addon is unavailable: ${nativeSkipReason ?? ''}; MIA_REQUIRE_NATIVE=1 makes this a failure\n`,
    );
    describe.skip(`${name} [skipped: native addon unavailable: ${nativeSkipReason ?? ''}]`, body);
  }
}
