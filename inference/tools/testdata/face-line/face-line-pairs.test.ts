import { faceLinePairs } from './face-line-pairs';
import { faceLinePhotos, type FaceLinePhoto } from './face-line-photos';

const box = { x: 0, y: 0, width: 1, height: 1 };
const photo = (identity: string, name: string, split: FaceLinePhoto['split'], crowd?: string): FaceLinePhoto => ({
  identity,
  photo: name,
  root: 'npm',
  file: `${name}.jpg`,
  face: box,
  split,
  crowd,
});
const documentsOf = (photos: FaceLinePhoto[]) =>
  photos.map((p) => ({ photo: p, file: `${p.photo}__passport.jpg`, kind: 'passport' }));

describe('face-line pairs', () => {
  it('pairs a document only with ANOTHER photo of its holder as genuine, never with a copy of its own photo', () => {
    const photos = [photo('ann', 'ann-2009', 'report'), photo('ann', 'ann-2012', 'report')];
    const pairs = faceLinePairs(documentsOf(photos), photos);
    expect(pairs.map((p) => [p.document, p.selfie, p.same])).toEqual([
      ['ann-2009__passport.jpg', 'ann-2012__selfie.jpg', true],
      ['ann-2012__passport.jpg', 'ann-2009__selfie.jpg', true],
    ]);
  });

  it('pairs unnamed faces as impostors only within one group photo, and named people with anyone', () => {
    const photos = [
      photo('g1-a', 'g1-a', 'report', 'g1'),
      photo('g1-b', 'g1-b', 'report', 'g1'),
      photo('g2-a', 'g2-a', 'report', 'g2'),
      photo('bob', 'bob', 'report'),
    ];
    const pairs = faceLinePairs(documentsOf(photos), photos).map((p) => p.identities.join(' vs '));
    expect(pairs).toEqual(expect.arrayContaining(['g1-a vs g1-b', 'g1-b vs g1-a', 'g2-a vs bob', 'bob vs g1-a']));
    expect(pairs).not.toContain('g1-a vs g2-a');
    expect(pairs).not.toContain('g2-a vs g1-b');
  });

  it('never pairs across the calibration and report splits, and the project set keeps each person in one split', () => {
    const photos = [photo('ann', 'ann', 'calibration'), photo('bob', 'bob', 'report')];
    expect(faceLinePairs(documentsOf(photos), photos)).toEqual([]);
    const splitsOf = new Map<string, Set<string>>();
    for (const p of faceLinePhotos) splitsOf.set(p.identity, (splitsOf.get(p.identity) ?? new Set()).add(p.split));
    expect([...splitsOf.entries()].filter(([, splits]) => splits.size > 1)).toEqual([]);
    const crowdsSplit = new Map<string, Set<string>>();
    for (const p of faceLinePhotos)
      if (p.crowd) crowdsSplit.set(p.crowd, (crowdsSplit.get(p.crowd) ?? new Set()).add(p.split));
    expect([...crowdsSplit.values()].every((s) => s.size === 1)).toBe(true);
  });
});
