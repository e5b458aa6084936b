import type { FaceLinePhoto } from './face-line-photos';

/** One comparison as the service makes it: the portrait read from `document` against `selfie`. */
export interface FaceLinePair {
  document: string;
  selfie: string;
  same: boolean;
  /** `document-vs-other-photo` (genuine) or `different-person`, with the document kind. */
  kind: string;
  split: FaceLinePhoto['split'];
  /** The two people (document's first), to count distinct identity pairs behind the figures. */
  identities: [string, string];
}

/** Whether the two photos are known to show different people (unnamed faces: only within one photo). */
function knownApart(a: FaceLinePhoto, b: FaceLinePhoto): boolean {
  return a.identity !== b.identity && !(a.crowd && b.crowd && a.crowd !== b.crowd);
}

/**
 * Every document against every selfie in the same split whose label is certain: genuine where the
 * selfie is another photo of the document's holder (never the very photo on the document: that
 * would be a copy), impostor where the two are known to be different people.
 */
export function faceLinePairs(
  documents: Array<{ photo: FaceLinePhoto; file: string; kind: string }>,
  photos: FaceLinePhoto[],
): FaceLinePair[] {
  const pairs: FaceLinePair[] = [];
  for (const doc of documents) {
    for (const selfie of photos) {
      if (selfie.split !== doc.photo.split || selfie.photo === doc.photo.photo) continue;
      const same = selfie.identity === doc.photo.identity;
      if (!same && !knownApart(doc.photo, selfie)) continue;
      pairs.push({
        document: doc.file,
        selfie: `${selfie.photo}__selfie.jpg`,
        same,
        kind: `${doc.kind}: ${same ? 'document-vs-other-photo' : 'different-person'}`,
        split: doc.photo.split,
        identities: [doc.photo.identity, selfie.identity],
      });
    }
  }
  return pairs;
}
