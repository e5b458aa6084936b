/**
 * The inference tier's boundaries, read from the code itself (imports parsed with the TypeScript
 * scanner): the client stands alone, nothing in inference/ imports in a cycle, the tools reach the
 * task code through its public entry only, and models/ holds nothing but models.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { listModelNames, listVersionNumbers } from '../src/repository/repository-walk';
import { findCycles, importsOf, listTsFiles } from './support/import-graph';

const REPO = path.resolve(__dirname, '../..');
const INFERENCE = path.join(REPO, 'inference');
const SRC = path.join(INFERENCE, 'src');
const CLIENT = path.join(SRC, 'client');
const PROTO_GEN = path.join(REPO, 'proto/gen');
const TASKS_ENTRY = path.join(SRC, 'tasks/index.ts');

const inside = (dir: string, file: string) => !path.relative(dir, file).startsWith('..');
const rel = (file: string) => path.relative(REPO, file);

describe('inference boundaries', () => {
  it('has no file in inference/src/client that imports anything outside it but generated proto types and packages', () => {
    const files = listTsFiles(CLIENT);
    expect(files.length).toBeGreaterThan(3);
    const outside = files.flatMap((file) =>
      importsOf(file)
        .filter((edge) => edge.resolved !== null && !inside(CLIENT, edge.resolved) && !inside(PROTO_GEN, edge.resolved))
        .map((edge) => `${rel(file)} imports ${edge.specifier}`),
    );
    expect(outside).toEqual([]);
  });

  it('has no import cycle between files anywhere in inference/', () => {
    const cycles = findCycles(listTsFiles(INFERENCE)).map((cycle) => cycle.map(rel).join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('has no import cycle between the folders of inference/src (tests, which nothing imports, left out)', () => {
    const folderOf = (file: string): string | null => {
      if (!inside(SRC, file) || file.endsWith('.test.ts')) return null;
      const parts = path.relative(SRC, file).split(path.sep);
      // tasks/ holds one folder per check plus shared files; each is its own node.
      return parts[0] === 'tasks' ? `tasks/${parts[1].replace(/\.ts$/, '')}` : parts.length > 1 ? parts[0] : '.';
    };
    const cycles = findCycles(listTsFiles(SRC), folderOf).map((cycle) => cycle.join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('lets the tools reach task code only through inference/src/tasks/index.ts', () => {
    const tasks = path.join(SRC, 'tasks');
    const internal = listTsFiles(path.join(INFERENCE, 'tools')).flatMap((file) =>
      importsOf(file)
        .filter((edge) => edge.resolved !== null && inside(tasks, edge.resolved) && edge.resolved !== TASKS_ENTRY)
        .map((edge) => `${rel(file)} imports ${edge.specifier}`),
    );
    expect(internal).toEqual([]);
  });

  it('keeps models/ to model folders (each with numbered versions) and their README', () => {
    const models = path.join(REPO, 'models');
    const notModels = listModelNames(models).filter((name) => listVersionNumbers(path.join(models, name)).length === 0);
    expect(notModels).toEqual([]);
    const looseFiles = readdirSync(models, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
    expect(looseFiles).toEqual(['.gitignore', 'README.md']);
    expect(existsSync(path.join(models, 'README.md'))).toBe(true);
  });
});
