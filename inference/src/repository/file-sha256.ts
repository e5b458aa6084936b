import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** Streams the file so a large model is hashed without holding a second copy in memory. */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
