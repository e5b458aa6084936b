import { drawAugmentation } from './augment-face';
import { seededRandom, seedOf } from '../../../../scripts/test-support/seeded-random';

describe('face augmentations', () => {
  it('are drawn reproducibly from the identity seed, so regenerated sets are identical', () => {
    const first = drawAugmentation(seededRandom(seedOf('astronaut')));
    const again = drawAugmentation(seededRandom(seedOf('astronaut')));
    expect(again).toEqual(first);
    expect(drawAugmentation(seededRandom(seedOf('messi')))).not.toEqual(first);
  });

  it('stay inside ranges that keep the face whole and recognisable', () => {
    const random = seededRandom(7);
    for (let i = 0; i < 200; i++) {
      const a = drawAugmentation(random);
      expect(Math.max(...a.crop)).toBeLessThanOrEqual(0.08);
      expect(a.scale).toBeGreaterThanOrEqual(0.6);
      expect(a.scale).toBeLessThanOrEqual(1.3);
      expect(Math.abs(a.rotationDegrees)).toBeLessThanOrEqual(8);
      expect(a.jpegQuality).toBeGreaterThanOrEqual(45);
    }
  });
});
