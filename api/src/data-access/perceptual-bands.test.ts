import { randomBytes } from 'node:crypto';
import { BANDS, bandKeys, openHash, PERCEPTUAL_LINE, sealHash } from './perceptual-bands';
import { hammingDistance } from './perceptual-hash';

const key = randomBytes(32);

/** The hash with `n` bits flipped, spread so that each lands in another band where it can. */
function flip(hash: string, positions: number[]): string {
  const bytes = Buffer.from(hash, 'hex');
  for (const p of positions) bytes[p >> 3] ^= 1 << (p & 7);
  return bytes.toString('hex');
}

describe('the perceptual bands', () => {
  const hash = '3c5a96e10f7b2d48';

  it('gives one key per band, each keyed by the account and the kind', () => {
    const keys = bandKeys(key, 'acc_1', 'selfie', hash);
    expect(keys).toHaveLength(BANDS);
    expect(new Set(keys).size).toBe(BANDS);
    expect(bandKeys(key, 'acc_2', 'selfie', hash).some((k) => keys.includes(k))).toBe(false);
    expect(bandKeys(key, 'acc_1', 'liveness', hash).some((k) => keys.includes(k))).toBe(false);
    expect(bandKeys(randomBytes(32), 'acc_1', 'selfie', hash).some((k) => keys.includes(k))).toBe(false);
  });

  it('shares a band with every hash within the line, however its differing bits fall (pigeonhole)', () => {
    const keys = bandKeys(key, 'acc', 'selfie', hash);
    // The worst case: the differing bits spread one per band, as far as they go.
    const spread = Array.from({ length: PERCEPTUAL_LINE }, (_, band) => band * 8 + (band % 8));
    const near = flip(hash, spread);
    expect(hammingDistance(hash, near)).toBe(PERCEPTUAL_LINE);
    expect(bandKeys(key, 'acc', 'selfie', near).filter((k) => keys.includes(k))).toHaveLength(1);
    // One more bit in the last band and no band is left in common: the line is what the bands guarantee.
    const far = flip(near, [7 * 8]);
    expect(bandKeys(key, 'acc', 'selfie', far).some((k) => keys.includes(k))).toBe(false);
  });

  it('seals the full hash so it opens only with the key, differently for each entry', () => {
    const a = sealHash(key, hash, 'acc\0ses_1\0selfie\0' + '0');
    const b = sealHash(key, hash, 'acc\0ses_2\0selfie\0' + '0');
    expect(openHash(key, a)).toBe(hash);
    expect(openHash(key, b)).toBe(hash);
    expect(a).not.toBe(b);
    expect(a).toBe(sealHash(key, hash, 'acc\0ses_1\0selfie\0' + '0'));
    expect(openHash(randomBytes(32), a)).not.toBe(hash);
  });
});
