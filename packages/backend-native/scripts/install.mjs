#!/usr/bin/env node
// Builds the native addon of @mia/backend-native at install time, when it can:
//   1. a prebuilt addon for this platform in prebuilds/ (node-gyp-build layout) is used as is;
//   2. otherwise `node-gyp rebuild` compiles native/*.cc against oneDNN (Debian: `apt-get install
//      libdnnl-dev g++`), with Node's own headers when they are installed (no download);
//   3. when that fails (no compiler, no oneDNN), it says why in one line and exits 0: the package
//      still installs, and `initBackend()` falls back to the wasm backend, saying why once.
// Flags: --force rebuilds even when a build exists. MIA_NATIVE_SKIP_BUILD=1 skips the build.
// MIA_ONEDNN=source builds the addon against oneDNN 3.7.2 compiled from source instead of the
// system's oneDNN (scripts/onednn-source.mjs: the tarball from MIA_ONEDNN_TARBALL or Debian's mirror,
// a CMake build into $MIA_CACHE_DIR or ~/.cache/mia); a failure of that build, which was asked for,
// fails the install (exit 1) instead of falling back to the system's oneDNN.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');
const say = (line) => process.stderr.write(`@mia/backend-native: ${line}\n`);

function prebuilt() {
  const dir = join(root, 'prebuilds', `${process.platform}-${process.arch}`);
  return existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.node'));
}

function nodeGyp() {
  // npm and pnpm pass their bundled node-gyp to lifecycle scripts; else one on the PATH, else npm's.
  const fromEnv = process.env.npm_config_node_gyp;
  if (fromEnv && existsSync(fromEnv)) return [process.execPath, fromEnv];
  const which = spawnSync('sh', ['-c', 'command -v node-gyp'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return [which.stdout.trim()];
  const npmDir = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  if (existsSync(npmDir)) return [process.execPath, npmDir];
  return undefined;
}

function nodedirArgs() {
  if (process.env.npm_config_nodedir) return [];
  // Node's headers installed next to the binary (Debian/NodeSource packages, official tarballs): use
  // them instead of downloading.
  const prefix = join(dirname(process.execPath), '..');
  return existsSync(join(prefix, 'include', 'node', 'node_api.h')) ? [`--nodedir=${prefix}`] : [];
}

// Why node-gyp failed, in one line.
function failureReason(r) {
  const out = `${r.stdout ?? ''}\n${r.stderr ?? ''}`;
  let reason = `node-gyp exited with ${r.status ?? r.signal ?? r.error?.message}`;
  if (/dnnl\.hpp: No such file/.test(out)) reason = 'oneDNN headers not found (Debian/Ubuntu: apt-get install libdnnl-dev)';
  else if (/cannot find -ldnnl/.test(out)) reason = 'libdnnl not found (Debian/Ubuntu: apt-get install libdnnl-dev)';
  else if (/(g\+\+|c\+\+|make): (not found|No such file)|gyp ERR! stack Error: not found: make/.test(out))
    reason = 'no C++ toolchain (apt-get install g++ make)';
  else if (/gyp ERR! .*(getaddrinfo|ENOTFOUND|ECONNREFUSED|EAI_AGAIN)/.test(out))
    reason = 'node-gyp tried to download Node headers (set npm_config_nodedir to a Node install with include/node)';
  return { reason, out };
}

async function main() {
  if (process.env.MIA_NATIVE_SKIP_BUILD === '1') return say('MIA_NATIVE_SKIP_BUILD=1: not building the addon (the wasm backend will be used)');
  if ((process.env.MIA_ONEDNN ?? '').trim() !== '') {
    // Asked for a oneDNN: "system" goes on below as without the variable, "source" builds 3.7.2.
    const onednn = await import('./onednn-source.mjs');
    let request;
    try {
      request = onednn.onednnRequest(process.env);
    } catch (error) {
      say(error.message);
      process.exitCode = 1;
      return;
    }
    if (request === 'source') return fromSource(onednn);
  }
  if (!force && existsSync(join(root, 'build', 'Release', 'mia_native.node'))) return;
  if (!force && prebuilt()) return;
  const gyp = nodeGyp();
  if (gyp === undefined) return say('node-gyp not found; the addon was not built (the wasm backend will be used)');
  try {
    createRequire(join(root, 'package.json')).resolve('node-addon-api');
  } catch {
    return say('node-addon-api is not installed; the addon was not built (the wasm backend will be used)');
  }
  const [cmd, ...pre] = gyp;
  const r = spawnSync(cmd, [...pre, 'rebuild', ...nodedirArgs()], { cwd: root, encoding: 'utf8' });
  if (r.status === 0) return say('native addon built (build/Release/mia_native.node)');
  const { reason, out } = failureReason(r);
  say(`the native addon was not built: ${reason}. Training falls back to the wasm backend. Details: run \`node scripts/install.mjs --force\` in ${root}`);
  if (force) {
    process.stderr.write(out);
    process.exitCode = 1;
  }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

// MIA_ONEDNN=source: oneDNN 3.7.2 built from source into the cache (unless a finished build is
// there), then the addon against it. Prebuilt addons are for the system's oneDNN and not used; an
// addon already built against this cache's build is kept unless --force.
async function fromSource(onednn) {
  const { ONEDNN_VERSION: version, OnednnSourceError } = onednn;
  try {
    const prefix = onednn.onednnPrefix(process.env);
    const addon = join(root, 'build', 'Release', 'mia_native.node');
    const stamp = join(root, 'build', 'mia-onednn.json');
    const stamped = readJson(stamp);
    if (!force && existsSync(addon) && stamped?.prefix === prefix && stamped?.onednn === version && onednn.completeBuild(prefix))
      return say(`native addon already built against oneDNN ${version} (${prefix}); --force rebuilds it`);
    const gyp = nodeGyp();
    if (gyp === undefined) throw new OnednnSourceError('node-gyp not found (npm and pnpm bring one; else npm i -g node-gyp)');
    try {
      createRequire(join(root, 'package.json')).resolve('node-addon-api');
    } catch {
      throw new OnednnSourceError('node-addon-api is not installed');
    }
    await onednn.ensureOnednn(process.env, say);
    const [cmd, ...pre] = gyp;
    const r = spawnSync(cmd, [...pre, 'rebuild', ...nodedirArgs(), '--', `-Dmia_onednn_prefix=${prefix}`], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) {
      const { reason, out } = failureReason(r);
      throw new OnednnSourceError(`node-gyp failed against ${prefix}: ${reason}\n${out.split('\n').slice(-30).join('\n')}`);
    }
    // The oneDNN that the addon loads at run time, through its rpath, as info() reports it.
    const probe = spawnSync(process.execPath, ['-e', 'process.stdout.write(require(process.argv[1]).info().onednn)', addon], { encoding: 'utf8' });
    const loaded = probe.status === 0 ? probe.stdout.trim() : `none (${(probe.stderr ?? '').trim().split('\n')[0]})`;
    if (loaded !== version)
      throw new OnednnSourceError(
        `the addon built against ${prefix} loads oneDNN ${loaded}: its rpath to ${join(prefix, 'lib')} is not used (LD_LIBRARY_PATH comes first)`,
      );
    writeFileSync(stamp, `${JSON.stringify({ onednn: loaded, prefix }, null, 2)}\n`);
    say(
      `native addon built against oneDNN ${loaded} compiled from source (${prefix}); \`node scripts/install.mjs --force\` without MIA_ONEDNN goes back to the system's oneDNN`,
    );
  } catch (error) {
    if (!(error instanceof OnednnSourceError)) throw error;
    say(`MIA_ONEDNN=source: the addon was not built against oneDNN ${version}: ${error.message}`);
    process.exitCode = 1;
  }
}

await main();
