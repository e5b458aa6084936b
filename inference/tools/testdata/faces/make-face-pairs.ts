import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { applyAugmentation, drawAugmentation, loadPortrait, type Augmentation } from './augment-face';
import { faceSources, graceHopperOtherCrop, yaleRelitCells } from './face-sources';
import { seededRandom, seedOf } from '../../../../scripts/test-support/seeded-random';

/** One line of pairs.jsonl; paths are relative to the pairs file. See README.md beside this file. */
export interface FacePair {
  a: string;
  b: string;
  same: boolean;
  kind: string;
}

interface FaceImage {
  file: string;
  identity: string;
  augmentation: Augmentation | null;
}

const augmentedCopiesPerPhoto = 4;

export async function makeFacePairs(assetsDir: string, outDir: string): Promise<FacePair[]> {
  const images: FaceImage[] = [];
  const pairs: FacePair[] = [];
  for (const source of faceSources) {
    const portrait = await loadPortrait(assetsDir, source);
    const original = await save(
      outDir,
      `${source.identity}__original.jpg`,
      await sharp(portrait).jpeg({ quality: 95 }).toBuffer(),
    );
    const family: FaceImage[] = [{ file: original, identity: source.identity, augmentation: null }];
    const random = seededRandom(seedOf(source.identity));
    for (let copy = 1; copy <= augmentedCopiesPerPhoto; copy++) {
      const augmentation = drawAugmentation(random);
      const file = await save(
        outDir,
        `${source.identity}__augmented-${copy}.jpg`,
        await applyAugmentation(portrait, augmentation),
      );
      family.push({ file, identity: source.identity, augmentation });
    }
    for (let i = 0; i < family.length; i++) {
      for (let j = i + 1; j < family.length; j++)
        pairs.push({ a: family[i].file, b: family[j].file, same: true, kind: 'augmented-same-photo' });
    }
    images.push(...family);
  }
  pairs.push(...(await extraGenuinePairs(assetsDir, outDir)));
  for (let i = 0; i < images.length; i++) {
    for (let j = i + 1; j < images.length; j++) {
      if (images[i].identity !== images[j].identity)
        pairs.push({ a: images[i].file, b: images[j].file, same: false, kind: 'different-person' });
    }
  }
  await writeFile(path.join(outDir, 'pairs.jsonl'), pairs.map((p) => JSON.stringify(p)).join('\n') + '\n');
  await writeFile(path.join(outDir, 'augmentations.json'), JSON.stringify(images, null, 1) + '\n');
  return pairs;
}

/** The only genuine pairs that are not augmentations of one file: other lighting, other crop. */
async function extraGenuinePairs(assetsDir: string, outDir: string): Promise<FacePair[]> {
  const pairs: FacePair[] = [];
  const yale = faceSources.find((s) => s.identity === 'yale-subject')!;
  for (const [index, cell] of yaleRelitCells.entries()) {
    const relit = await loadPortrait(assetsDir, yale, cell);
    const file = await save(
      outDir,
      `yale-subject__relit-${index + 1}.jpg`,
      await sharp(relit).jpeg({ quality: 95 }).toBuffer(),
    );
    pairs.push({ a: 'yale-subject__original.jpg', b: file, same: true, kind: 'same-person-relit' });
  }
  const otherCrop = await sharp(path.join(assetsDir, graceHopperOtherCrop)).jpeg({ quality: 95 }).toBuffer();
  const file = await save(outDir, 'grace-hopper__other-crop.jpg', otherCrop);
  pairs.push({ a: 'grace-hopper__original.jpg', b: file, same: true, kind: 'same-photo-other-crop' });
  return pairs;
}

async function save(outDir: string, name: string, data: Buffer): Promise<string> {
  await writeFile(path.join(outDir, name), data);
  return name;
}
