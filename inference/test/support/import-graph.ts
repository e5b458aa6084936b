/**
 * The import graph of TypeScript files, read with the compiler's own import scanner (static
 * imports, re-exports, `import()` and `require()`; type-only imports count too), so boundary and
 * cycle tests see exactly what the code names without a bundler or a new dependency.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** The name as written in the file. */
  specifier: string;
  /** Absolute path of the file it resolves to; null for a package or an unresolvable name. */
  resolved: string | null;
}

export function listTsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listTsFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveRelative(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

export function importsOf(file: string): ImportEdge[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.map(({ fileName }) => ({
    specifier: fileName,
    resolved: fileName.startsWith('.')
      ? (resolveRelative(file, fileName) ?? path.resolve(path.dirname(file), fileName))
      : null,
  }));
}

/** Every cycle in a directed graph, each reported once as the path of nodes that closes on itself. */
function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/**
 * Import cycles among `files`, with each file standing for the node `nodeOf` names (null leaves the
 * file out). Files as themselves find file cycles; files as their folder find two folders that
 * import each other even when no single file does.
 */
export function findCycles(files: string[], nodeOf: (file: string) => string | null = (file) => file): string[][] {
  const inSet = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = nodeOf(file);
    if (!from) continue;
    const targets = graph.get(from) ?? new Set<string>();
    for (const edge of importsOf(file)) {
      const to = edge.resolved && inSet.has(edge.resolved) ? nodeOf(edge.resolved) : null;
      if (to && to !== from) targets.add(to);
    }
    graph.set(from, targets);
  }
  return cyclesOf(graph);
}
