import { createHash } from 'node:crypto';
import { gcmOpen, gcmSeal } from './aes-gcm';

/**
 * Seals secrets the service must read back (webhook signing secrets) with AES-256-GCM under a key
 * from the environment, so a copy of the database alone does not let anyone forge our webhooks.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = createHash('sha256').update(keyMaterial, 'utf8').digest();
  }

  seal(plaintext: string): string {
    const { iv, tag, body } = gcmSeal(this.key, Buffer.from(plaintext, 'utf8'));
    return ['v1', iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || !body) throw new Error('sealed secret has an unknown format');
    return gcmOpen(this.key, { iv: Buffer.from(iv, 'base64'), tag: Buffer.from(tag, 'base64'), body: Buffer.from(body, 'base64') }).toString('utf8');
  }
}
