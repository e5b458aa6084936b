/**
 * Challenge sequences: a print, an artwork or a printed averaged face held up and turned to imitate
 * the head turns (`held-and-turned.ts`), a screen replaying a live
 * challenge recording (the liveness test set's performing sequences, re-rendered through a phone,
 * tablet or laptop screen held still), another person's face printed as a mask and worn through the
 * challenge, and those live recordings themselves through the same camera.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { between, seededRandom, seedOf } from '../../../../scripts/test-support/seeded-random';
import type { LivenessSequence } from '../faces/make-liveness-sequences';
import { drawCamera, sceneSize, throughCamera, type CameraParams } from './camera-path';
import { drawScene, presentSurface, type Pose } from './present-surface';
import { sheetOf, turnSheet, type HeldSpecies } from './held-and-turned';
import { blank, decodeRaw, sample, type Raw } from './raw-image';
import { drawMaskLook, poseOfFrame, wearFlatMask } from './mask-worn-sequences';
import { isRoomy, type PadPhoto } from './pad-sources';
import { screen } from './surfaces';

export type SequenceSpecies = HeldSpecies | 'screen-replay' | 'mask-worn' | 'live';

export interface PadSequence {
  name: string;
  /** Relative to labels.json. */
  frames: string[];
  challenge: LivenessSequence['challenge'];
  live: boolean;
  species: SequenceSpecies;
  source_identity: string;
  /** The live recording a replay shows or a live sequence is, from .state/testdata/liveness. */
  source_sequence: string | null;
  params: Record<string, number | string>;
  camera: CameraParams;
}

export async function makePadSequences(
  livenessDir: string,
  outDir: string,
  counts: {
    prints: number;
    artworks: number;
    averagedPrints: number;
    replays: number;
    live: number;
    masksWorn: number;
  },
  seedPrefix = 'pad',
  photos: PadPhoto[] = [],
): Promise<PadSequence[]> {
  const recorded = await readFile(path.join(livenessDir, 'sequences.jsonl'), 'utf8');
  const performing = recorded
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LivenessSequence)
    .filter((s) => s.live);
  const identities = [...new Set(performing.map((s) => s.name.split('__')[0]))];
  const out: PadSequence[] = [];
  const write = async (name: string, frames: Raw[], camera: CameraParams, random: () => number) => {
    await mkdir(path.join(outDir, name), { recursive: true });
    const files: string[] = [];
    for (const [k, frame] of frames.entries()) {
      const file = `${name}/frame-${String(k).padStart(2, '0')}.jpg`;
      await writeFile(path.join(outDir, file), await throughCamera(frame, camera, random));
      files.push(file);
    }
    return files;
  };
  const held: Array<[HeldSpecies, number]> = [
    ['print-turned', counts.prints],
    ['artwork-turned', counts.artworks],
    ['averaged-print-turned', counts.averagedPrints],
  ];
  for (const [species, count] of held) {
    for (let i = 0; i < count; i++) {
      const random = seededRandom(seedOf(`${seedPrefix}:${species}:${i}`));
      const identity = identities[i % identities.length];
      const still = await decodeRaw(path.join(livenessDir, `${identity}__synthetic-pose-neutral.jpg`));
      const sheet = await sheetOf(species, i, still, random, {
        subject: photos.find((p) => p.name === `${identity}__pose-neutral`),
        others: photos.filter((p) => p.identity !== identity && isRoomy(p)),
      });
      const challenge = performing[i % performing.length].challenge;
      const turned = turnSheet(sheet, challenge, random, i % 4 === 3);
      const name = `${species}-${String(i).padStart(3, '0')}`;
      out.push({
        name,
        frames: await write(name, turned.frames, turned.camera, random),
        challenge,
        live: false,
        species,
        source_identity: identity,
        source_sequence: null,
        params: { ...sheet.params, ...turned.params },
        camera: turned.camera,
      });
    }
  }
  for (let i = 0; i < counts.replays; i++) {
    const random = seededRandom(seedOf(`${seedPrefix}:screen-replay:${i}`));
    const recording = performing[i % performing.length];
    const shown = await Promise.all(recording.frames.map((f) => decodeRaw(path.join(livenessDir, f))));
    const resolved = random() < 0.3;
    const scene = drawScene(random, sceneSize.width, sceneSize.height, { bent: false, hand: false });
    const pose: Pose = {
      yaw: between(random, -12, 12),
      pitch: between(random, -10, 10),
      roll: between(random, -3, 3),
    };
    const device = seededRandom(seedOf(`${seedPrefix}:screen-replay:device:${i}`));
    let params: Record<string, number | string> = {};
    const frames: Raw[] = [];
    for (const frame of shown) {
      // The same device draw for every frame: one screen replays the whole recording.
      const surface = await screen(frame, seededRandom(seedOf(`${seedPrefix}:screen-replay:device:${i}`)), resolved);
      params = surface.params;
      scene.fill = Math.min(
        scene.fill,
        (0.92 * sceneSize.width) / sceneSize.height / (surface.surface.width / surface.surface.height),
      );
      frames.push(presentSurface(surface.surface, scene, { ...pose, yaw: pose.yaw + between(device, -1, 1) }, random));
    }
    const name = `screen-replay-${String(i).padStart(3, '0')}`;
    const camera = drawCamera(random);
    out.push({
      name,
      frames: await write(name, frames, camera, random),
      challenge: recording.challenge,
      live: false,
      species: 'screen-replay',
      source_identity: recording.name.split('__')[0],
      source_sequence: recording.name,
      params,
      camera,
    });
  }
  for (let i = 0; i < counts.live; i++) {
    const random = seededRandom(seedOf(`${seedPrefix}:live-sequence:${i}`));
    const recording = performing[i % performing.length];
    const shown = await Promise.all(recording.frames.map((f) => decodeRaw(path.join(livenessDir, f))));
    const { frames, zoom } = framedAsLive(shown, random);
    const name = `live-sequence-${String(i).padStart(3, '0')}`;
    const camera = drawCamera(random);
    out.push({
      name,
      frames: await write(name, frames, camera, random),
      challenge: recording.challenge,
      live: true,
      species: 'live',
      source_identity: recording.name.split('__')[0],
      source_sequence: recording.name,
      params: { zoom: +zoom.toFixed(2) },
      camera,
    });
  }
  for (let i = 0; i < counts.masksWorn; i++) {
    const random = seededRandom(seedOf(`${seedPrefix}:mask-worn:${i}`));
    const recording = performing[i % performing.length];
    const identity = recording.name.split('__')[0];
    const wearer = photos.find((p) => p.name === `${identity}__pose-neutral`);
    const masks = photos.filter((p) => p.identity !== identity && p.name.endsWith('__portrait'));
    if (!wearer || !masks.length) throw new Error(`no eyes found for ${identity}'s neutral frame or no mask faces`);
    const mask = masks[Math.floor(i / performing.length) % masks.length];
    const look = drawMaskLook(random);
    const shown = await Promise.all(
      recording.frames.map(async (f) =>
        wearFlatMask(mask, wearer, await decodeRaw(path.join(livenessDir, f)), poseOfFrame(f), look),
      ),
    );
    const { frames, zoom } = framedAsLive(shown, random);
    const name = `mask-worn-${String(i).padStart(3, '0')}`;
    const camera = drawCamera(random);
    out.push({
      name,
      frames: await write(name, frames, camera, random),
      challenge: recording.challenge,
      live: false,
      species: 'mask-worn',
      source_identity: mask.identity,
      source_sequence: recording.name,
      params: {
        mask_of: mask.identity,
        worn_by: identity,
        size: +look.size.toFixed(2),
        contrast: +look.contrast.toFixed(2),
        zoom: +zoom.toFixed(2),
      },
      camera,
    });
  }
  return out;
}

/** A recording framed as the live sequences are: a random 85–100 % crop scaled to the scene's height. */
function framedAsLive(shown: Raw[], random: () => number): { frames: Raw[]; zoom: number } {
  const zoom = between(random, 0.85, 1);
  const [fx, fy] = [random(), random()];
  const frames = shown.map((photo) => {
    const w = photo.width * zoom;
    const h = photo.height * zoom;
    const scale = sceneSize.height / h;
    return blank(
      Math.round(w * scale),
      sceneSize.height,
      (x, y, c) => sample(photo, fx * (photo.width - w) + x / scale, fy * (photo.height - h) + y / scale, c) ?? 0,
    );
  });
  return { frames, zoom };
}
