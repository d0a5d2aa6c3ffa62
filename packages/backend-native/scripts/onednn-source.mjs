// oneDNN 3.7.2 built from source for the addon, when the install is asked for it with MIA_ONEDNN=source
// (scripts/install.mjs; the default stays the system's oneDNN, Debian bookworm's 2.6.3). Steps:
//   1. the source: Debian trixie's onednn_3.7.2+ds.orig.tar.xz, from MIA_ONEDNN_TARBALL (a local
//      path) or else downloaded from Debian's mirror (kept in the cache for the next build), its
//      sha256 checked;
//   2. CMake configures, builds and installs it into a temporary directory in the cache
//      ($MIA_CACHE_DIR, else ~/.cache/mia), which is renamed to onednn-3.7.2/ only once complete, so
//      an interrupted build is never used;
//   3. install.mjs then runs node-gyp with -Dmia_onednn_prefix=<that directory> (binding.gyp adds
//      its include and lib directories and an rpath to its lib).
// Everything above the "side effects" line is pure, for the tests (src/onednn-source-build.test.ts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export const ONEDNN_VERSION = '3.7.2';
export const ONEDNN_TARBALL = 'onednn_3.7.2+ds.orig.tar.xz';
export const ONEDNN_SHA256 = '0cc51ca26c1af6a2bb1e71e378e7046f3ceb3e71791ee9d4e246d50f904a6ea6';
export const ONEDNN_URL = `http://deb.debian.org/debian/pool/main/o/onednn/${ONEDNN_TARBALL}`;

/**
 * The CMake options of the build (names and values from oneDNN 3.7.2's "Build Options" documentation).
 * The full commands (ensureOnednn below):
 *   cmake -S <source> -B <tmp>/build [-G Ninja] -DCMAKE_INSTALL_PREFIX=<tmp>/install <these options>
 *   cmake --build <tmp>/build --parallel <MIA_ONEDNN_JOBS, else the number of CPUs>
 *   cmake --install <tmp>/build
 */
export const ONEDNN_CMAKE_OPTIONS = [
  '-DCMAKE_BUILD_TYPE=Release',
  // <prefix>/lib, never lib64 or a multiarch directory: binding.gyp links and sets the rpath there.
  '-DCMAKE_INSTALL_LIBDIR=lib',
  '-DONEDNN_LIBRARY_TYPE=SHARED',
  // The addon's own loops are OpenMP (-fopenmp): one runtime (the compiler's, libgomp) for both.
  '-DONEDNN_CPU_RUNTIME=OMP',
  '-DONEDNN_GPU_RUNTIME=NONE',
  // The Graph API is not used, and it refuses a primitive selection (below).
  '-DONEDNN_BUILD_GRAPH=OFF',
  // Debian's +ds source has no bundled googletest: configuring with the tests on fails.
  '-DONEDNN_BUILD_TESTS=OFF',
  '-DONEDNN_BUILD_EXAMPLES=OFF',
  // 3.7.2 maps the other ONEDNN_* options to DNNL_* but not this one (CMake reports it unused).
  '-DDNNL_BUILD_DOC=OFF',
  // Backward-data and backward-weights convolutions.
  '-DONEDNN_ENABLE_WORKLOAD=TRAINING',
  // The primitives the addon creates (convolution, reorder) and those that convolution
  // implementations create inside themselves: inner product (a convolution with a 1×1 output) and
  // matmul (the plain-layout convolutions); without them those implementations would be skipped, a
  // difference from a full library. dnnl_sgemm needs none (it calls the GEMM kernels directly).
  // In 3.7.2 this trims what oneDNN dispatches to, not what it compiles.
  '-DONEDNN_ENABLE_PRIMITIVE=CONVOLUTION;REORDER;INNER_PRODUCT;MATMUL',
];

/** A failure of the requested source build, with what to do; install.mjs prints it and exits 1. */
export class OnednnSourceError extends Error {
  name = 'OnednnSourceError';
}

/**
 * Which oneDNN the addon is built against, from MIA_ONEDNN: 'system' (unset, empty or "system": the
 * system's oneDNN, as without the variable) or 'source' (3.7.2 built from source).
 */
export function onednnRequest(env) {
  const raw = env.MIA_ONEDNN;
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'system') return 'system';
  if (value === 'source') return 'source';
  throw new OnednnSourceError(
    `MIA_ONEDNN=${raw}: expected "source" (build the addon against oneDNN ${ONEDNN_VERSION} compiled from source) or "system" (the default: the system's oneDNN)`,
  );
}

/** The cache directory, as the rest of the toolkit resolves it: $MIA_CACHE_DIR, else ~/.cache/mia. */
export function cacheRoot(env, home = homedir()) {
  const fromEnv = env.MIA_CACHE_DIR;
  return fromEnv !== undefined && fromEnv !== '' ? resolve(fromEnv) : join(home, '.cache', 'mia');
}

/** Where the finished build lives: <cache>/onednn-3.7.2 (include/, lib/, mia-build.json). */
export function onednnPrefix(env, home = homedir()) {
  return join(cacheRoot(env, home), `onednn-${ONEDNN_VERSION}`);
}

/** Where a downloaded tarball is kept. */
export function cachedTarballPath(env, home = homedir()) {
  return join(cacheRoot(env, home), ONEDNN_TARBALL);
}

/** Parallel compile jobs: MIA_ONEDNN_JOBS (a positive integer), else the number of CPUs. */
export function buildJobs(env, cpus = availableParallelism()) {
  const raw = env.MIA_ONEDNN_JOBS;
  if (raw === undefined || raw.trim() === '') return Math.max(1, cpus);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new OnednnSourceError(`MIA_ONEDNN_JOBS=${raw}: expected a positive integer (parallel compile jobs)`);
  return n;
}

/** Why a directory cannot be the prefix (make and gyp split or expand these characters), or undefined. */
export function unsafePrefixReason(prefix) {
  const bad = /[\s'"$#`\\;]/.exec(prefix);
  if (bad === null) return undefined;
  return `the oneDNN build directory ${JSON.stringify(prefix)} contains ${JSON.stringify(bad[0])}, which the addon's build cannot pass to the linker; set MIA_CACHE_DIR to a directory without spaces, quotes, $, #, ; or backslashes`;
}

/** The first CMake command: configure <source> into <build>, to be installed into <install>. */
export function cmakeConfigureArgs({ sourceDir, buildDir, installDir, ninja }) {
  return ['-S', sourceDir, '-B', buildDir, ...(ninja ? ['-G', 'Ninja'] : []), `-DCMAKE_INSTALL_PREFIX=${installDir}`, ...ONEDNN_CMAKE_OPTIONS];
}

/** What the finished build records in <prefix>/mia-build.json; a build recorded otherwise is redone. */
export function buildRecord({ seconds, jobs } = {}) {
  return { onednn: ONEDNN_VERSION, sha256: ONEDNN_SHA256, cmakeOptions: ONEDNN_CMAKE_OPTIONS, ...(seconds === undefined ? {} : { seconds, jobs }) };
}

/** Whether a recorded build (parsed mia-build.json) is one these options would make. */
export function recordMatches(record) {
  return (
    record !== null &&
    typeof record === 'object' &&
    record.onednn === ONEDNN_VERSION &&
    record.sha256 === ONEDNN_SHA256 &&
    JSON.stringify(record.cmakeOptions) === JSON.stringify(ONEDNN_CMAKE_OPTIONS)
  );
}

const WHAT_TO_DO_SYSTEM = "or unset MIA_ONEDNN to build against the system's oneDNN 2.x (Debian/Ubuntu: apt-get install libdnnl-dev)";

/** The message when a tarball is not Debian's onednn_3.7.2+ds.orig.tar.xz. origin: 'env' (MIA_ONEDNN_TARBALL) or 'download'. */
export function checksumMismatchMessage(file, actual, origin) {
  const head = `${file} has sha256 ${actual}, not ${ONEDNN_SHA256} (Debian's ${ONEDNN_TARBALL})`;
  if (origin === 'env')
    return `${head}. MIA_ONEDNN_TARBALL must name that file (from ${ONEDNN_URL}): point it at a good copy, or unset it to download the file, ${WHAT_TO_DO_SYSTEM}`;
  return `${head}: the download from ${ONEDNN_URL} is not that file (a proxy's page or a cut transfer?). Download it yourself, check its sha256 and set MIA_ONEDNN_TARBALL=/path/to/${ONEDNN_TARBALL}, ${WHAT_TO_DO_SYSTEM}`;
}

/** The message when MIA_ONEDNN_TARBALL names no readable file. */
export function missingTarballMessage(file) {
  return `MIA_ONEDNN_TARBALL=${file}: no such file. Point it at Debian's ${ONEDNN_TARBALL} (sha256 ${ONEDNN_SHA256}, from ${ONEDNN_URL}), or unset it to download the file, ${WHAT_TO_DO_SYSTEM}`;
}

/** The message when the download fails (no network, the mirror unreachable, HTTP error). */
export function downloadFailedMessage(reason) {
  return `could not download ${ONEDNN_URL} (${reason}). Download it where Debian's mirror is reachable and set MIA_ONEDNN_TARBALL=/path/to/${ONEDNN_TARBALL} (sha256 ${ONEDNN_SHA256}), ${WHAT_TO_DO_SYSTEM}`;
}

const TEMP_PREFIX = `.onednn-${ONEDNN_VERSION}-tmp-`;

/** The name of a build's temporary directory (mkdtemp appends six characters). */
export function tempDirPrefix(pid = process.pid) {
  return `${TEMP_PREFIX}${pid}-`;
}

/** Temporary directories in `names` left by builds whose process is gone (isAlive(pid) false). */
export function staleTempDirs(names, isAlive) {
  return names.filter((name) => {
    if (!name.startsWith(TEMP_PREFIX)) return false;
    const pid = Number(name.slice(TEMP_PREFIX.length).split('-')[0]);
    return !Number.isInteger(pid) || pid <= 0 || !isAlive(pid);
  });
}

// ---- side effects ----------------------------------------------------------------------------

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** The sha256 of a file, in hex. */
export async function sha256File(file) {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

function readRecord(prefix) {
  try {
    return JSON.parse(readFileSync(join(prefix, 'mia-build.json'), 'utf8'));
  } catch {
    return null;
  }
}

/** Whether <prefix> holds a finished build made with these options. */
export function completeBuild(prefix) {
  return (
    recordMatches(readRecord(prefix)) && existsSync(join(prefix, 'include', 'oneapi', 'dnnl', 'dnnl.hpp')) && existsSync(join(prefix, 'lib', 'libdnnl.so'))
  );
}

function tool(cmd, args, hint) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) throw new OnednnSourceError(`${cmd} not found or not working; ${hint}`);
  return r.stdout;
}

function checkTools() {
  const out = tool('cmake', ['--version'], 'building oneDNN from source needs CMake ≥ 3.13 (Debian/Ubuntu: apt-get install cmake)');
  const [major = 0, minor = 0] = (/cmake version (\d+)\.(\d+)/.exec(out) ?? []).slice(1).map(Number);
  if (major < 3 || (major === 3 && minor < 13)) throw new OnednnSourceError(`CMake ${major}.${minor} is too old for oneDNN ${ONEDNN_VERSION} (needs ≥ 3.13)`);
  tool('xz', ['--version'], `unpacking ${ONEDNN_TARBALL} needs xz (Debian/Ubuntu: apt-get install xz-utils)`);
  return spawnSync('sh', ['-c', 'command -v ninja'], { encoding: 'utf8' }).status === 0;
}

async function download(dest, say) {
  say(`downloading ${ONEDNN_URL} (about 10 MB)`);
  const part = `${dest}.${process.pid}.part`;
  try {
    const res = await fetch(ONEDNN_URL, { signal: AbortSignal.timeout(10 * 60_000) });
    if (!res.ok || res.body === null) throw new Error(`HTTP ${res.status} ${res.statusText}`);
    await pipeline(Readable.fromWeb(res.body), createWriteStream(part));
  } catch (error) {
    rmSync(part, { force: true });
    const cause = error?.cause?.code ?? error?.cause?.message;
    throw new OnednnSourceError(downloadFailedMessage(`${error?.message ?? error}${cause ? `: ${cause}` : ''}`));
  }
  const actual = await sha256File(part);
  if (actual !== ONEDNN_SHA256) {
    rmSync(part, { force: true });
    throw new OnednnSourceError(checksumMismatchMessage(ONEDNN_URL, actual, 'download'));
  }
  renameSync(part, dest);
  return dest;
}

/** The checked tarball: MIA_ONEDNN_TARBALL, else the cached download, else a new download. */
export async function obtainTarball(env, say) {
  const given = env.MIA_ONEDNN_TARBALL;
  if (given !== undefined && given !== '') {
    const file = resolve(given);
    if (!existsSync(file) || !statSync(file).isFile()) throw new OnednnSourceError(missingTarballMessage(file));
    const actual = await sha256File(file);
    if (actual !== ONEDNN_SHA256) throw new OnednnSourceError(checksumMismatchMessage(file, actual, 'env'));
    return file;
  }
  const cached = cachedTarballPath(env);
  if (existsSync(cached)) {
    if ((await sha256File(cached)) === ONEDNN_SHA256) return cached;
    rmSync(cached, { force: true });
  }
  mkdirSync(cacheRoot(env), { recursive: true });
  return download(cached, say);
}

function run(cmd, args, log, what) {
  const fd = openSync(log, 'a');
  try {
    writeFileSync(fd, `\n$ ${[cmd, ...args].join(' ')}\n`);
    const r = spawnSync(cmd, args, { stdio: ['ignore', fd, fd] });
    if (r.status !== 0) {
      const tail = readFileSync(log, 'utf8').split('\n').slice(-25).join('\n');
      throw new OnednnSourceError(`${what} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`}); the whole log is ${log}. Its end:\n${tail}`);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * oneDNN 3.7.2 built from source into the cache, built now unless a finished build with the same
 * options is there. Returns its prefix (include/, lib/).
 */
export async function ensureOnednn(env, say) {
  const root = cacheRoot(env);
  const prefix = onednnPrefix(env);
  const unsafe = unsafePrefixReason(prefix);
  if (unsafe !== undefined) throw new OnednnSourceError(unsafe);
  if (completeBuild(prefix)) {
    say(`using oneDNN ${ONEDNN_VERSION} built earlier in ${prefix}`);
    return prefix;
  }
  const ninja = checkTools();
  const jobs = buildJobs(env);
  const tarball = await obtainTarball(env, say);
  mkdirSync(root, { recursive: true });
  for (const name of staleTempDirs(readdirSync(root), processAlive)) rmSync(join(root, name), { recursive: true, force: true });
  const tmp = mkdtempSync(join(root, tempDirPrefix()));
  const log = join(root, `onednn-${ONEDNN_VERSION}-build.log`);
  writeFileSync(log, `oneDNN ${ONEDNN_VERSION} from ${tarball}, ${new Date().toISOString()}\n`);
  try {
    const src = join(tmp, 'src');
    mkdirSync(src);
    run('tar', ['-xJf', tarball, '-C', src], log, `unpacking ${tarball}`);
    const top = readdirSync(src).find((d) => existsSync(join(src, d, 'CMakeLists.txt')));
    if (top === undefined) throw new OnednnSourceError(`${tarball} has no CMakeLists.txt in its top directory: not oneDNN's source`);
    const buildDir = join(tmp, 'build');
    const installDir = join(tmp, 'install');
    say(`building oneDNN ${ONEDNN_VERSION} from source with ${jobs} job(s): CPU-only, OpenMP; this takes a while (log: ${log})`);
    const started = Date.now();
    run('cmake', cmakeConfigureArgs({ sourceDir: join(src, top), buildDir, installDir, ninja }), log, 'CMake configure of oneDNN');
    run('cmake', ['--build', buildDir, '--parallel', String(jobs)], log, 'the oneDNN build');
    run('cmake', ['--install', buildDir], log, 'the oneDNN install');
    const seconds = Math.round((Date.now() - started) / 1000);
    writeFileSync(join(installDir, 'mia-build.json'), `${JSON.stringify(buildRecord({ seconds, jobs }), null, 2)}\n`);
    if (!completeBuild(installDir))
      throw new OnednnSourceError(`the oneDNN install in ${installDir} has no include/oneapi/dnnl/dnnl.hpp or lib/libdnnl.so; see ${log}`);
    // Swap the finished build in: an older or unfinished prefix is moved aside first.
    if (existsSync(prefix)) {
      if (completeBuild(prefix)) return prefix; // another install finished the same build meanwhile
      renameSync(prefix, join(tmp, 'old'));
    }
    try {
      renameSync(installDir, prefix);
    } catch (error) {
      if (!completeBuild(prefix)) throw error; // else another install put the same build in place first
    }
    say(`oneDNN ${ONEDNN_VERSION} built in ${(seconds / 60).toFixed(1)} min with ${jobs} job(s), into ${prefix}`);
    return prefix;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
