// The checker behind test/self-contained.test.ts: the repository stands alone, so its docs, sources,
// examples, generated reports, benchmarks and scripts never point at files a clone does not have
// (the team's workspace next to the repository, a paper's local copy, a missing file), and every
// `docs/protocol.md §N` / `An` citation names a section or ambiguity the reference has.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** One reference that leaves the repository or points nowhere, with its 1-based line. */
export interface Leak {
  file: string;
  line: number;
  problem: string;
}

/** The sections and ambiguity numbers of the algorithm reference, which citations are checked against. */
export interface ProtocolIndex {
  sections: Set<string>;
  ambiguities: Set<string>;
}

const TEXT = /\.(md|ts|tsx|mts|js|mjs|cjs|json|html|py|ya?ml|txt|sh)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.turbo', '.cache']);

/** Mentions of files outside the repository, and names of documents that are not in it. */
const MENTIONS: Array<[RegExp, string]> = [
  [/(?:\.\.\/)+shared\b[\w./-]*/g, 'a path into the workspace next to the repository'],
  [/\bshared\/(?:(?:papers|reference|anchors|hooks)\b[\w./-]*|[A-Z]+\.md\b)/g, 'a path into the team workspace'],
  [/\bpapers\/[\w.-]+\.md\b/g, "a paper's local copy (cite its title or arXiv id)"],
  [/(?<![\w/.-])(?:PROTOCOL|PERFORMANCE|DESIGN|STYLE|DEVELOPERS)\.md\b/g, 'a document that is not in the repository'],
];

/** Files the rule covers: README.md, docs/** (not the generated docs/api), every text file of packages/* and examples/* (READMEs, sources, scripts, configs, results), bench/**, scripts/**. */
export function selfContainedFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name) && path !== join(root, 'docs', 'api')) walk(path);
      } else if (TEXT.test(entry.name)) out.push(path);
    }
  };
  const add = (path: string): void => {
    if (existsSync(path)) out.push(path);
  };
  add(join(root, 'README.md'));
  for (const dir of ['docs', 'bench', 'scripts']) walk(join(root, dir));
  for (const group of ['packages', 'examples']) {
    if (!existsSync(join(root, group))) continue;
    for (const name of readdirSync(join(root, group))) {
      walk(join(root, group, name));
    }
  }
  return out.sort();
}

/** Section numbers (`1`, `4.12`) and ambiguity numbers (`A11`) defined by docs/protocol.md and docs/protocol/*.md. */
export function protocolIndex(root: string): ProtocolIndex {
  const files = [join(root, 'docs', 'protocol.md')];
  const dir = join(root, 'docs', 'protocol');
  if (existsSync(dir))
    files.push(
      ...readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .map((f) => join(dir, f)),
    );
  const sections = new Set<string>();
  const ambiguities = new Set<string>();
  for (const file of files.filter((f) => existsSync(f))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^#{2,4} (\d+(?:\.\d+)?)\.? /gm)) sections.add(m[1]!);
    for (const m of text.matchAll(/^\| (A\d+) \|/gm)) ambiguities.add(m[1]!);
  }
  return { sections, ambiguities };
}

/** Markdown link targets (outside fenced code and inline code) and HTML `href`/`src` attributes, with their lines. */
function linkTargets(text: string, file: string): Array<{ line: number; target: string }> {
  const out: Array<{ line: number; target: string }> = [];
  let fence: string | null = null;
  text.split(/\r?\n/).forEach((raw, i) => {
    if (file.endsWith('.md')) {
      const m = /^ {0,3}(`{3,}|~{3,})/.exec(raw);
      if (fence === null && m) {
        fence = m[1]!;
        return;
      }
      if (fence !== null) {
        if (raw.trim().startsWith(fence)) fence = null;
        return;
      }
      const line = raw.replace(/(`+)(?:(?!\1).)+?\1/g, '');
      for (const l of line.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g)) out.push({ line: i + 1, target: l[1]! });
      const def = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/.exec(line);
      if (def) out.push({ line: i + 1, target: def[1]! });
    }
    if (file.endsWith('.md') || file.endsWith('.html')) {
      for (const a of raw.matchAll(/\s(?:href|src)="([^"]+)"/g)) out.push({ line: i + 1, target: a[1]! });
    }
  });
  return out;
}

/** What is wrong with a relative link `target` in `file`, or null (absolute URLs, mailto and same-file anchors are fine). */
function linkProblem(root: string, file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('//')) return null;
  const pathPart = decodeURIComponent(target.split('#')[0]!.split('?')[0]!);
  if (pathPart === '') return null;
  // A leading `/` is the repository root on GitHub (Markdown) and the page's own folder for the
  // examples' HTML pages, which Vite serves from there.
  const base = pathPart.startsWith('/') ? (file.endsWith('.html') ? dirname(file) : root) : dirname(file);
  const path = pathPart.startsWith('/') ? join(base, pathPart) : resolve(base, pathPart);
  const rel = relative(root, path);
  if (rel === '..' || rel.startsWith(`..${sep}`) || rel.startsWith(sep)) return `link ${target} leaves the repository`;
  if (!existsSync(path)) return `link ${target} points to a missing file (${rel})`;
  return null;
}

/** Every leak in one file's text: forbidden mentions, links out of the repository or to missing files, citations of sections the reference lacks. */
export function leaksIn(root: string, file: string, text: string, index: ProtocolIndex): Leak[] {
  const rel = relative(root, file);
  const leaks: Leak[] = [];
  const lineAt = (offset: number): number => text.slice(0, offset).split('\n').length;
  const taken: Array<[number, number]> = []; // one problem per mention: a later rule skips what an earlier one matched
  for (const [pattern, what] of MENTIONS) {
    for (const m of text.matchAll(pattern)) {
      const [start, end] = [m.index, m.index + m[0].length];
      if (taken.some(([s, e]) => start < e && s < end)) continue;
      taken.push([start, end]);
      leaks.push({ file: rel, line: lineAt(start), problem: `${what}: "${m[0]}"` });
    }
  }
  for (const { line, target } of linkTargets(text, file)) {
    const problem = linkProblem(root, file, target);
    if (problem) leaks.push({ file: rel, line, problem });
  }
  for (const m of text.matchAll(/docs\/protocol\.md((?:,? (?:§\d+(?:\.\d+)?|A\d+)\b)+)/g)) {
    for (const cite of m[1]!.matchAll(/§(\d+(?:\.\d+)?)|(A\d+)/g)) {
      const known = cite[1] !== undefined ? index.sections.has(cite[1]) : index.ambiguities.has(cite[2]!);
      if (!known) leaks.push({ file: rel, line: lineAt(m.index), problem: `docs/protocol.md has no ${cite[0]}` });
    }
  }
  return leaks.sort((a, b) => a.line - b.line);
}

/** Every leak in `files` (default: {@link selfContainedFiles}), as `file:line: problem` lines. */
export function findLeaks(root: string, files: string[] = selfContainedFiles(root)): string[] {
  const index = protocolIndex(root);
  return files
    .filter((f) => statSync(f).isFile())
    .flatMap((f) => leaksIn(root, f, readFileSync(f, 'utf8'), index))
    .map((l) => `${l.file}:${l.line}: ${l.problem}`);
}
