/** The vaults the encrypted store is compared with: the same repository code without the cryptography. */
import { PiiVault } from '../../api/src/public-entry';

/** The baseline: the same repository code with sealing and opening as identity. */
export class PassThroughVault extends PiiVault {
  override seal(_where: string, plaintext: string): Promise<string> {
    return Promise.resolve(plaintext);
  }
  override open(_where: string, stored: string): Promise<string> {
    return Promise.resolve(stored);
  }
}

/** Same stored size as sealed values (base64 plus the same overhead), no cryptography: separates size from crypto. */
export class SizeMatchedVault extends PiiVault {
  override seal(_where: string, plaintext: string): Promise<string> {
    return Promise.resolve(`sv0:dk-0000-00-00:${'0'.repeat(37)}${Buffer.from(plaintext, 'utf8').toString('base64')}`);
  }
  override open(_where: string, stored: string): Promise<string> {
    return Promise.resolve(
      stored.startsWith('sv0:') ? Buffer.from(stored.slice(55), 'base64').toString('utf8') : stored,
    );
  }
}
