import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The file's sha256, or null when it does not exist yet (a fresh checkout). */
export async function sha256OfFile(file: string): Promise<string | null> {
  try {
    return sha256(await readFile(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
