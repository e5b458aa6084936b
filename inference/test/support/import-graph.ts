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
    resolved: fileName.startsWith('.') ? resolveRelative(file, fileName) ?? path.resolve(path.dirname(file), fileName) : null,
  }));
}

/** Every cycle among `files` (each reported once, as the path of files that closes on itself). */
export function findCycles(files: string[]): string[][] {
  const inSet = new Set(files);
  const edges = new Map(files.map((f) => [f, [...new Set(importsOf(f).map((e) => e.resolved).filter((r): r is string => r !== null && inSet.has(r)))]]));
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}

/**
 * The same walk one level up: each file stands for its folder (`folderOf` names it, or null to
 * leave the file out), so two folders that import each other show as a cycle even when no single
 * file does.
 */
export function findFolderCycles(files: string[], folderOf: (file: string) => string | null): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = folderOf(file);
    if (!from) continue;
    const targets = graph.get(from) ?? new Set<string>();
    for (const edge of importsOf(file)) {
      const to = edge.resolved && folderOf(edge.resolved);
      if (to && to !== from) targets.add(to);
    }
    graph.set(from, targets);
  }
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
