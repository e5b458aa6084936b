import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { dctHash, hammingDistance } from './perceptual-hash';

const FACES = path.resolve(__dirname, '../../../.state/testdata/faces');
const photo = (file: string) => readFileSync(path.join(FACES, file));

describe('the perceptual hash of a capture', () => {
  it('is 64 bits, the same for the same bytes', async () => {
    const hash = await dctHash(photo('astronaut__original.jpg'));
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(await dctHash(photo('astronaut__original.jpg'))).toBe(hash);
  });

  it('moves by a few bits at most for a re-encoded, resized, cropped or re-lit copy', async () => {
    const image = photo('bearded-man__original.jpg');
    const { width, height } = await sharp(image).metadata();
    const copies = await Promise.all([
      sharp(image).jpeg({ quality: 60 }).toBuffer(),
      sharp(image)
        .resize({ width: Math.round(width / 2) })
        .jpeg({ quality: 90 })
        .toBuffer(),
      sharp(image)
        .extract({
          left: Math.round(width * 0.02),
          top: Math.round(height * 0.02),
          width: Math.round(width * 0.96),
          height: Math.round(height * 0.96),
        })
        .toBuffer(),
      sharp(image).modulate({ brightness: 1.1 }).toBuffer(),
    ]);
    const original = await dctHash(image);
    for (const copy of copies) expect(hammingDistance(original, await dctHash(copy))).toBeLessThanOrEqual(7);
  });

  it("differs by many bits between two people's photos", async () => {
    const a = await dctHash(photo('astronaut__original.jpg'));
    const b = await dctHash(photo('grace-hopper__original.jpg'));
    expect(hammingDistance(a, b)).toBeGreaterThan(12);
  });

  it('refuses bytes that are not an image (the caller falls back to the exact digest)', async () => {
    await expect(dctHash(Buffer.from('not an image'))).rejects.toThrow();
  });
});

describe('the Hamming distance', () => {
  it('counts the differing bits', () => {
    expect(hammingDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('0f00000000000001', '0000000000000000')).toBe(5);
  });
});
