// docs/architecture.md, the folders of @mia/experiments' src/, their READMEs and the layers that
// `pnpm lint` enforces (packages/experiments/.dependency-cruiser.cjs) must name the same folders.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'packages', 'experiments', 'src');
const architecture = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
const layers = (createRequire(import.meta.url)('../packages/experiments/.dependency-cruiser.cjs') as { layers: string[] }).layers;
/** Folders of fixtures for the tests, not a step of a run. */
const NOT_LAYERS = ['test-utils'];
const folders = readdirSync(src, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !NOT_LAYERS.includes(d.name))
  .map((d) => d.name);

/** The nodes (`id["folder/: …"]`) and edges (`a --> b`, `a -.-> b`) of the one mermaid block of `text`. */
function mermaidGraph(text: string): { nodes: Map<string, string>; edges: Array<[string, string]> } {
  const blocks = [...text.matchAll(/^```mermaid\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  if (blocks.length !== 1) throw new Error(`expected one mermaid diagram, found ${blocks.length}`);
  const nodes = new Map<string, string>();
  const edges: Array<[string, string]> = [];
  for (const line of blocks[0]!.split('\n').map((l) => l.trim())) {
    const node = /^(\w+)\["([^"]*)"\]$/.exec(line);
    const edge = /^(\w+)\s*(?:-->|-\.->)\s*(\w+)$/.exec(line);
    if (node) nodes.set(node[1]!, node[2]!);
    else if (edge) edges.push([edge[1]!, edge[2]!]);
    else if (line !== '' && !/^flowchart\b/.test(line)) throw new Error(`mermaidGraph: a line that is neither a node nor an edge: ${line}`);
  }
  return { nodes, edges };
}

/** The folders a README's "**May import:**" line names (`store/`, …), in order. */
function mayImport(readme: string): string[] {
  const line = /^\*\*May import:\*\*(.*)$/m.exec(readme)?.[1];
  if (line === undefined) throw new Error('no "**May import:**" line');
  return [...line.matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1]!);
}

describe('the layout of @mia/experiments', () => {
  it("docs/architecture.md's diagram has one node per folder of src/, labelled with the folder, and no other", () => {
    const { nodes, edges } = mermaidGraph(architecture);
    expect([...nodes.keys()].sort()).toEqual([...folders].sort());
    for (const [id, label] of nodes) expect(label.startsWith(`${id}/:`), `node ${id}: ${label}`).toBe(true);
    for (const [a, b] of edges) expect(nodes.has(a) && nodes.has(b), `edge ${a} --> ${b}`).toBe(true);
    // Every folder takes part in the flow.
    for (const id of nodes.keys())
      expect(
        edges.some(([a, b]) => a === id || b === id),
        id,
      ).toBe(true);
  });

  it('the lint config layers exactly the folders of src/, and the docs list them in its order', () => {
    expect([...layers].sort()).toEqual([...folders].sort());
    const listed = /The folders are layered:([^.]*)\./.exec(architecture.replace(/\s+/g, ' '))?.[1] ?? '';
    expect([...listed.matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1])).toEqual(layers);
  });

  it("each folder's README says what it owns and may import exactly the folders below it", () => {
    layers.forEach((folder, i) => {
      const path = join(src, folder, 'README.md');
      expect(existsSync(path), path).toBe(true);
      const readme = readFileSync(path, 'utf8');
      expect(readme, path).toMatch(/^\*\*Owns:\*\* \S/m);
      expect(mayImport(readme), path).toEqual(layers.slice(0, i));
    });
  });

  it('the checks above fail on a diagram that misses a folder or names one too many', () => {
    const drop = architecture.replace(/^ {2}store\[.*\n/m, '').replace(/^ {2}(train --> store|store --> attacks)\n/gm, '');
    expect([...mermaidGraph(drop).nodes.keys()].sort()).not.toEqual([...layers].sort());
    const extra = architecture.replace(/^(```mermaid\nflowchart LR\n)/m, '$1  extra["extra/: not a folder"]\n');
    expect([...mermaidGraph(extra).nodes.keys()].sort()).not.toEqual([...layers].sort());
  });
});
