// The pure parts of the opt-in oneDNN 3.7.2 source build of the install script
// (scripts/onednn-source.mjs, used by scripts/install.mjs when MIA_ONEDNN=source): the environment
// variables, the cache path, the CMake command line and the messages. Nothing here downloads or builds.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ONEDNN_CMAKE_OPTIONS,
  ONEDNN_SHA256,
  ONEDNN_URL,
  OnednnSourceError,
  buildJobs,
  buildRecord,
  cacheRoot,
  cachedTarballPath,
  checksumMismatchMessage,
  cmakeConfigureArgs,
  downloadFailedMessage,
  missingTarballMessage,
  obtainTarball,
  onednnPrefix,
  onednnRequest,
  recordMatches,
  sha256File,
  staleTempDirs,
  tempDirPrefix,
  unsafePrefixReason,
} from '../scripts/onednn-source.mjs';

const dir = mkdtempSync(join(tmpdir(), 'mia-onednn-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('MIA_ONEDNN', () => {
  it('is the system oneDNN when unset, empty or "system", the source build for "source"', () => {
    expect.hasAssertions();
    expect(onednnRequest({})).toBe('system');
    expect(onednnRequest({ MIA_ONEDNN: '' })).toBe('system');
    expect(onednnRequest({ MIA_ONEDNN: ' System ' })).toBe('system');
    expect(onednnRequest({ MIA_ONEDNN: 'source' })).toBe('source');
    expect(onednnRequest({ MIA_ONEDNN: 'SOURCE' })).toBe('source');
  });

  it('rejects another value, naming the two it takes', () => {
    expect.hasAssertions();
    expect(() => onednnRequest({ MIA_ONEDNN: '3.7.2' })).toThrow(OnednnSourceError);
    expect(() => onednnRequest({ MIA_ONEDNN: '3.7.2' })).toThrow(/^MIA_ONEDNN=3\.7\.2: expected "source" .* or "system" \(the default: the system's oneDNN\)$/);
  });
});

describe('the cache directory', () => {
  it('is $MIA_CACHE_DIR (made absolute), else ~/.cache/mia, with the build in onednn-3.7.2/', () => {
    expect.hasAssertions();
    expect(cacheRoot({}, '/home/u')).toBe('/home/u/.cache/mia');
    expect(cacheRoot({ MIA_CACHE_DIR: '' }, '/home/u')).toBe('/home/u/.cache/mia');
    expect(cacheRoot({ MIA_CACHE_DIR: '/data/mia' }, '/home/u')).toBe('/data/mia');
    expect(cacheRoot({ MIA_CACHE_DIR: 'rel' }, '/home/u')).toBe(join(process.cwd(), 'rel'));
    expect(onednnPrefix({}, '/home/u')).toBe('/home/u/.cache/mia/onednn-3.7.2');
    expect(onednnPrefix({ MIA_CACHE_DIR: '/data/mia' })).toBe('/data/mia/onednn-3.7.2');
    expect(cachedTarballPath({ MIA_CACHE_DIR: '/data/mia' })).toBe('/data/mia/onednn_3.7.2+ds.orig.tar.xz');
  });

  it('is refused when make or gyp would split its path', () => {
    expect.hasAssertions();
    expect(unsafePrefixReason('/home/u/.cache/mia/onednn-3.7.2')).toBeUndefined();
    expect(unsafePrefixReason('/home/my user/.cache/mia/onednn-3.7.2')).toMatch(/contains " ", .*set MIA_CACHE_DIR to a directory without spaces/);
    expect(unsafePrefixReason('/data/$HOME/onednn-3.7.2')).toMatch(/contains "\$"/);
  });

  it('names its temporary build directories after the process, and finds those of dead processes', () => {
    expect.hasAssertions();
    expect(tempDirPrefix(42)).toBe('.onednn-3.7.2-tmp-42-');
    const names = ['.onednn-3.7.2-tmp-42-abcdef', '.onednn-3.7.2-tmp-43-ghijkl', '.onednn-3.7.2-tmp-x-zzzzzz', 'onednn-3.7.2', 'models'];
    expect(staleTempDirs(names, (pid) => pid === 42)).toEqual(['.onednn-3.7.2-tmp-43-ghijkl', '.onednn-3.7.2-tmp-x-zzzzzz']);
  });
});

describe('the CMake build', () => {
  it('is CPU-only, OpenMP, without graph, tests, examples or docs, limited to the primitives the addon reaches', () => {
    expect.hasAssertions();
    const option = (name: string) => ONEDNN_CMAKE_OPTIONS.find((o) => o.startsWith(`-D${name}=`))?.split('=')[1];
    // What the addon needs: a shared release library on the addon's OpenMP runtime, CPU only, with training kernels.
    expect([option('CMAKE_BUILD_TYPE'), option('ONEDNN_LIBRARY_TYPE'), option('ONEDNN_CPU_RUNTIME'), option('ONEDNN_GPU_RUNTIME')]).toEqual([
      'Release',
      'SHARED',
      'OMP',
      'NONE',
    ]);
    expect(option('ONEDNN_ENABLE_WORKLOAD')).toBe('TRAINING');
    // The rpath and -L of binding.gyp point at <prefix>/lib.
    expect(option('CMAKE_INSTALL_LIBDIR')).toBe('lib');
    // Nothing the addon does not load (the +ds tarball cannot even configure with the tests on).
    for (const off of ['ONEDNN_BUILD_GRAPH', 'ONEDNN_BUILD_TESTS', 'ONEDNN_BUILD_EXAMPLES', 'DNNL_BUILD_DOC']) expect(option(off)).toBe('OFF');
    // The primitives the addon creates, and those its convolutions create inside themselves.
    expect(option('ONEDNN_ENABLE_PRIMITIVE')?.split(';').sort()).toEqual(['CONVOLUTION', 'INNER_PRODUCT', 'MATMUL', 'REORDER']);
    // Every option is a -DNAME=value define, each named once.
    const names = ONEDNN_CMAKE_OPTIONS.map((o) => /^-D([A-Z_]+)=\S+$/.exec(o)?.[1]);
    expect(names).not.toContain(undefined);
    expect(new Set(names).size).toBe(names.length);
    expect(cmakeConfigureArgs({ sourceDir: '/s', buildDir: '/t/build', installDir: '/t/install', ninja: true })).toEqual([
      '-S',
      '/s',
      '-B',
      '/t/build',
      '-G',
      'Ninja',
      '-DCMAKE_INSTALL_PREFIX=/t/install',
      ...ONEDNN_CMAKE_OPTIONS,
    ]);
    expect(cmakeConfigureArgs({ sourceDir: '/s', buildDir: '/b', installDir: '/i', ninja: false }).slice(0, 5)).toEqual([
      '-S',
      '/s',
      '-B',
      '/b',
      '-DCMAKE_INSTALL_PREFIX=/i',
    ]);
  });

  it('runs MIA_ONEDNN_JOBS jobs, else one per CPU, and rejects a job count that is not a positive integer', () => {
    expect.hasAssertions();
    expect(buildJobs({}, 2)).toBe(2);
    expect(buildJobs({ MIA_ONEDNN_JOBS: '' }, 8)).toBe(8);
    expect(buildJobs({ MIA_ONEDNN_JOBS: '1' }, 8)).toBe(1);
    expect(() => buildJobs({ MIA_ONEDNN_JOBS: '0' }, 8)).toThrow(/^MIA_ONEDNN_JOBS=0: expected a positive integer/);
    expect(() => buildJobs({ MIA_ONEDNN_JOBS: 'all' }, 8)).toThrow(OnednnSourceError);
  });

  it('is redone when the recorded build had other options, another version or another tarball', () => {
    expect.hasAssertions();
    expect(recordMatches(buildRecord({ seconds: 900, jobs: 2 }))).toBe(true);
    expect(recordMatches(JSON.parse(JSON.stringify(buildRecord())))).toBe(true);
    expect(recordMatches({ ...buildRecord(), cmakeOptions: ONEDNN_CMAKE_OPTIONS.slice(1) })).toBe(false);
    expect(recordMatches({ ...buildRecord(), onednn: '3.7.1' })).toBe(false);
    expect(recordMatches({ ...buildRecord(), sha256: '0'.repeat(64) })).toBe(false);
    expect(recordMatches(null)).toBe(false);
  });
});

describe('the source tarball', () => {
  it('is checked against the sha256 of Debian trixie onednn_3.7.2+ds.orig.tar.xz', () => {
    expect.hasAssertions();
    expect(ONEDNN_SHA256).toBe('0cc51ca26c1af6a2bb1e71e378e7046f3ceb3e71791ee9d4e246d50f904a6ea6');
    expect(ONEDNN_URL).toBe('http://deb.debian.org/debian/pool/main/o/onednn/onednn_3.7.2+ds.orig.tar.xz');
  });

  it('hashes a file', async () => {
    expect.hasAssertions();
    const file = join(dir, 'abc.txt');
    writeFileSync(file, 'abc');
    await expect(sha256File(file)).resolves.toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('from MIA_ONEDNN_TARBALL with another checksum fails, saying what the file must be and what else to do', async () => {
    expect.hasAssertions();
    const file = join(dir, 'onednn_3.7.2+ds.orig.tar.xz');
    writeFileSync(file, 'abc');
    const expected = checksumMismatchMessage(file, 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 'env');
    expect(expected).toBe(
      `${file} has sha256 ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad, not ${ONEDNN_SHA256} (Debian's onednn_3.7.2+ds.orig.tar.xz). ` +
        `MIA_ONEDNN_TARBALL must name that file (from ${ONEDNN_URL}): point it at a good copy, or unset it to download the file, ` +
        `or unset MIA_ONEDNN to build against the system's oneDNN 2.x (Debian/Ubuntu: apt-get install libdnnl-dev)`,
    );
    await expect(obtainTarball({ MIA_ONEDNN_TARBALL: file, MIA_CACHE_DIR: join(dir, 'cache') }, () => {})).rejects.toThrow(expected);
    await expect(obtainTarball({ MIA_ONEDNN_TARBALL: file }, () => {})).rejects.toBeInstanceOf(OnednnSourceError);
  });

  it('from MIA_ONEDNN_TARBALL that does not exist fails, naming the file, its checksum and its address', async () => {
    expect.hasAssertions();
    const missing = join(dir, 'nowhere.tar.xz');
    await expect(obtainTarball({ MIA_ONEDNN_TARBALL: missing }, () => {})).rejects.toThrow(missingTarballMessage(missing));
    expect(missingTarballMessage(missing)).toContain(`sha256 ${ONEDNN_SHA256}, from ${ONEDNN_URL}`);
  });

  it('says, when the download fails or brings another file, how to give the file instead', () => {
    expect.hasAssertions();
    expect(downloadFailedMessage('fetch failed: ENOTFOUND')).toBe(
      `could not download ${ONEDNN_URL} (fetch failed: ENOTFOUND). Download it where Debian's mirror is reachable and set ` +
        `MIA_ONEDNN_TARBALL=/path/to/onednn_3.7.2+ds.orig.tar.xz (sha256 ${ONEDNN_SHA256}), ` +
        `or unset MIA_ONEDNN to build against the system's oneDNN 2.x (Debian/Ubuntu: apt-get install libdnnl-dev)`,
    );
    expect(checksumMismatchMessage(ONEDNN_URL, 'f'.repeat(64), 'download')).toMatch(
      /is not that file .*set MIA_ONEDNN_TARBALL=\/path\/to\/onednn_3\.7\.2\+ds\.orig\.tar\.xz, or unset MIA_ONEDNN/,
    );
  });
});

describe('binding.gyp', () => {
  it('adds the source build only when install.mjs passes mia_onednn_prefix, with an rpath to its lib', () => {
    expect.hasAssertions();
    const gyp = JSON.parse(readFileSync(new URL('../binding.gyp', import.meta.url), 'utf8'));
    expect(gyp.variables).toEqual({ 'mia_onednn_prefix%': '' });
    const target = gyp.targets[0];
    expect(target.libraries).toEqual(['-ldnnl', '-fopenmp']);
    expect(target.conditions).toEqual([
      [
        "mia_onednn_prefix!=''",
        {
          include_dirs: ['<(mia_onednn_prefix)/include'],
          ldflags: ['-L<(mia_onednn_prefix)/lib', '-Wl,-rpath,<(mia_onednn_prefix)/lib'],
        },
      ],
    ]);
  });
});
