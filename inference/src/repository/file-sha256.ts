import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** Hex sha256 of bytes in memory (the materializer hashes what it is about to write). */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Streams the file so a large model is hashed without holding a second copy in memory. */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The file's sha256, or null when it does not exist yet (a fresh checkout). */
export async function fileSha256IfPresent(path: string): Promise<string | null> {
  try {
    return await fileSha256(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
