import { describe, expect, it } from 'vitest';
import { nativeTestMode } from './native-available';

describe('nativeTestMode', () => {
  it('runs the native tests when the addon loads, whatever MIA_REQUIRE_NATIVE says', () => {
    expect.hasAssertions();
    expect(nativeTestMode(undefined, {})).toBe('run');
    expect(nativeTestMode(undefined, { MIA_REQUIRE_NATIVE: '1' })).toBe('run');
  });

  it('skips them when the addon cannot load, and fails them instead with MIA_REQUIRE_NATIVE=1', () => {
    expect.hasAssertions();
    const reason = 'the addon needs libdnnl.so.2, which is not installed';
    expect(nativeTestMode(reason, {})).toBe('skip');
    expect(nativeTestMode(reason, { MIA_REQUIRE_NATIVE: '0' })).toBe('skip');
    expect(nativeTestMode(reason, { MIA_REQUIRE_NATIVE: '1' })).toBe('fail');
  });
});
