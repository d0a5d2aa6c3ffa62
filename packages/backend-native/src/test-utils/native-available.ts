import { describe } from 'vitest';
import { nativeUnavailableReason } from '../load-native-addon';

const reason = nativeUnavailableReason();
const required = process.env['MIA_REQUIRE_NATIVE'] === '1';

if (reason !== undefined && !required) {
  process.stderr.write(`@mia/backend-native tests skipped: ${reason}\n`);
}

/**
 * `describe` when the native addon loads here; otherwise `describe.skip` with the reason printed,
 * except with `MIA_REQUIRE_NATIVE=1` (CI), where the suite runs and fails on the missing addon.
 */
export const describeNative: typeof describe = reason === undefined || required ? describe : (describe.skip as typeof describe);

/** Why the addon is unavailable here (undefined when it loads). */
export const nativeSkipReason = reason;
