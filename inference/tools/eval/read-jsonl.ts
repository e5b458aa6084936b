import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Parses a JSON-lines file; blank lines and lines starting with # are skipped. */
export async function readJsonl<T>(file: string, check: (row: unknown, line: number) => T): Promise<T[]> {
  const text = await readFile(file, 'utf8');
  const rows: T[] = [];
  text.split('\n').forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new Error(`${file}:${i + 1}: not valid JSON`);
    }
    rows.push(check(parsed, i + 1));
  });
  return rows;
}

/** Paths inside a labels file are relative to that file unless absolute. */
export function resolveBeside(file: string, relative: string): string {
  return path.isAbsolute(relative) ? relative : path.join(path.dirname(file), relative);
}

export function requireFlag(args: Record<string, string | undefined>, flag: string): string {
  const value = args[flag];
  if (!value) throw new Error(`--${flag} <file> is required`);
  return value;
}
