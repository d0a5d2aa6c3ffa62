// Types of onednn-source.mjs, for its tests (src/onednn-source-build.test.ts).
type Env = Record<string, string | undefined>;
type Say = (line: string) => void;

export declare const ONEDNN_VERSION: string;
export declare const ONEDNN_TARBALL: string;
export declare const ONEDNN_SHA256: string;
export declare const ONEDNN_URL: string;
export declare const ONEDNN_CMAKE_OPTIONS: readonly string[];

export declare class OnednnSourceError extends Error {}

export declare function onednnRequest(env: Env): 'system' | 'source';
export declare function cacheRoot(env: Env, home?: string): string;
export declare function onednnPrefix(env: Env, home?: string): string;
export declare function cachedTarballPath(env: Env, home?: string): string;
export declare function buildJobs(env: Env, cpus?: number): number;
export declare function unsafePrefixReason(prefix: string): string | undefined;
export declare function cmakeConfigureArgs(dirs: { sourceDir: string; buildDir: string; installDir: string; ninja: boolean }): string[];
export declare function buildRecord(timing?: { seconds?: number; jobs?: number }): Record<string, unknown>;
export declare function recordMatches(record: unknown): boolean;
export declare function checksumMismatchMessage(file: string, actual: string, origin: 'env' | 'download'): string;
export declare function missingTarballMessage(file: string): string;
export declare function downloadFailedMessage(reason: string): string;
export declare function tempDirPrefix(pid?: number): string;
export declare function staleTempDirs(names: readonly string[], isAlive: (pid: number) => boolean): string[];

export declare function sha256File(file: string): Promise<string>;
export declare function completeBuild(prefix: string): boolean;
export declare function obtainTarball(env: Env, say: Say): Promise<string>;
export declare function ensureOnednn(env: Env, say: Say): Promise<string>;
