import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { explainLoadFailure } from './load-native-addon';

// The messages Node's loader and node-gyp-build give for the usual failures (copied from real runs).
const missingDnnl = new Error('libdnnl.so.2: cannot open shared object file: No such file or directory');
const missingOpenCl = new Error('libOpenCL.so.1: cannot open shared object file: No such file or directory');
const missingGomp = new Error('libgomp.so.1: cannot open shared object file: No such file or directory');
const noBuild = new Error(
  'No native build was found for platform=linux arch=x64 runtime=node abi=115 uv=1 libc=glibc node=20.20.2\n    loaded from: /opt/app/node_modules/@mia/backend-native\n',
);
const otherNode = new Error(
  "The module '/opt/app/build/Release/mia_native.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 108. This version of Node.js requires\nNODE_MODULE_VERSION 115. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
);

describe('explainLoadFailure', () => {
  it('names the missing shared library and the Debian package that has it', () => {
    expect.hasAssertions();
    expect(explainLoadFailure(missingDnnl)).toBe(
      'the addon needs libdnnl.so.2, which is not installed (Debian/Ubuntu: apt-get install libdnnl2 (or libdnnl-dev))',
    );
    expect(explainLoadFailure(missingOpenCl)).toBe(
      'the addon needs libOpenCL.so.1, which is not installed (Debian/Ubuntu: apt-get install ocl-icd-libopencl1)',
    );
    expect(explainLoadFailure(missingGomp)).toBe('the addon needs libgomp.so.1, which is not installed (Debian/Ubuntu: apt-get install libgomp1)');
    expect(explainLoadFailure(new Error('libdnnl.so.3: cannot open shared object file: No such file or directory'))).toMatch(
      /^the addon needs libdnnl\.so\.3 \(oneDNN 3\.x\), which is not found: the build of MIA_ONEDNN=source .* was removed; reinstall with MIA_ONEDNN=source, or rebuild against the system's oneDNN with `node .*install\.mjs --force`$/,
    );
    expect(explainLoadFailure(new Error('libfoo.so.3: cannot open shared object file: No such file or directory'))).toBe(
      'the addon needs libfoo.so.3, which is not installed',
    );
  });

  it('says when no addon is built for this platform, with the platform and how to build it', () => {
    expect.hasAssertions();
    const m = explainLoadFailure(noBuild);
    expect(m).toContain(`the native addon is not built for this platform (${process.platform}-${process.arch}, Node ${process.versions.node})`);
    expect(m).toMatch(/apt-get install -y libdnnl-dev g\+\+.*scripts[\\/]install\.mjs --force/);
  });

  it('says when the addon was built for another Node.js version, with how to rebuild it', () => {
    expect.hasAssertions();
    expect(explainLoadFailure(otherNode)).toMatch(/^the addon was built for another Node\.js version; build it with .*install\.mjs --force`$/);
  });

  it('otherwise gives the first line of the message, of an Error or of anything thrown', () => {
    expect.hasAssertions();
    expect(explainLoadFailure(new Error('invalid ELF header\nmore details'))).toBe('invalid ELF header');
    expect(explainLoadFailure('plain string thrown')).toBe('plain string thrown');
    expect(explainLoadFailure(42)).toBe('42');
  });
});

describe('loading an addon that is not there or not an addon (MIA_NATIVE_ADDON)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  async function freshLoader(path: string) {
    vi.stubEnv('MIA_NATIVE_ADDON', path);
    vi.resetModules();
    return import('./load-native-addon');
  }

  it('a missing file: the reason says so, and loadNativeAddon throws a BackendError with it', async () => {
    expect.hasAssertions();
    const loader = await freshLoader('/nonexistent/mia_native.node');
    expect(loader.nativeUnavailableReason()).toMatch(/^Cannot find module '\/nonexistent\/mia_native\.node'/);
    expect(() => loader.loadNativeAddon()).toThrow(/^@mia\/backend-native: Cannot find module/);
    const { BackendError } = await import('@mia/core');
    expect(() => loader.loadNativeAddon()).toThrow(BackendError);
  });

  it('a file that is not a shared library: the loader’s first line, and no crash', async () => {
    expect.hasAssertions();
    const dir = mkdtempSync(join(tmpdir(), 'mia-native-'));
    const file = join(dir, 'broken.node');
    writeFileSync(file, 'not an ELF file\n'.repeat(100));
    const loader = await freshLoader(file);
    const reason = loader.nativeUnavailableReason();
    rmSync(dir, { recursive: true });
    expect(reason).toMatch(/broken\.node: invalid ELF header$/);
    expect(reason).not.toContain('\n');
  });
});
