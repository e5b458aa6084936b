/**
 * Still presentations, one species at a time, each from a seeded stream of its own (so a species'
 * samples do not change when another species is added), and live photos through the same camera.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { between, seededRandom, seedOf } from '../../../../scripts/test-support/seeded-random';
import { drawCamera, sceneSize, throughCamera, type CameraParams } from './camera-path';
import { averageFaces, wearMask } from './composite-faces';
import { isRoomy, type PadPhoto } from './pad-sources';
import { drawScene, presentSurface } from './present-surface';
import { blank, sample, type Raw } from './raw-image';
import { drawing, halftonePrint, painting, photoPrint, screen, type Surface } from './surfaces';

export type Species =
  | 'print-halftone'
  | 'print-photo-bent'
  | 'screen-subpixel'
  | 'screen-hi-ppi'
  | 'painting'
  | 'drawing'
  | 'mask'
  | 'averaged-face';
export const attackSpecies: Species[] = [
  'print-halftone',
  'print-photo-bent',
  'screen-subpixel',
  'screen-hi-ppi',
  'painting',
  'drawing',
  'mask',
  'averaged-face',
];

export interface PadStill {
  image: string;
  live: boolean;
  /**
   * `live`, `live-close` (a tight portrait as it is: the check should ask to move back) or the
   * attack species; also written as `kind` in labels.jsonl for `npm run eval`.
   */
  species: Species | 'live' | 'live-close';
  /** Whose face is shown (for a mask, the mask's face; for an average, every face in it). */
  source_identity: string;
  source_photo: string;
  params: Record<string, number | string>;
  camera: CameraParams;
}

const surfaceOf: Partial<Record<Species, (photo: Raw, random: () => number) => Promise<Surface>>> = {
  'print-halftone': halftonePrint,
  'print-photo-bent': photoPrint,
  'screen-subpixel': (photo, random) => screen(photo, random, true),
  'screen-hi-ppi': (photo, random) => screen(photo, random, false),
  painting,
  drawing,
};

/** Turn, tilt and roll of a held surface; a hand when someone holds it (prints, phones). */
export function holdSurface(surface: Surface, random: () => number, species: Species): Raw {
  const held = species.startsWith('print') || surface.params.screen === 'phone';
  const { width, height } = sceneSize;
  const scene = drawScene(random, width, height, { bent: species === 'print-photo-bent', hand: held });
  const aspect = surface.surface.width / surface.surface.height;
  scene.fill = Math.min(scene.fill, (0.92 * width) / height / aspect);
  const upright = species === 'painting' || species === 'drawing' ? 0.4 : 1;
  const pose = {
    yaw: between(random, -25, 25) * upright,
    pitch: between(random, -20, 20) * upright,
    roll: between(random, -8, 8) * upright,
  };
  Object.assign(surface.params, {
    yaw: +pose.yaw.toFixed(1),
    pitch: +pose.pitch.toFixed(1),
    roll: +pose.roll.toFixed(1),
    bend: +scene.bend.toFixed(2),
    hand: held ? 'yes' : 'no',
    glare: +scene.glare.strength.toFixed(2),
  });
  return presentSurface(surface.surface, scene, pose, random);
}

/** A live photo framed as a phone or webcam would: a random crop of 90–100 % around the face. */
function frameLive(photo: Raw, random: () => number): { scene: Raw; params: Record<string, number> } {
  const zoom = between(random, 0.9, 1);
  const w = photo.width * zoom;
  const h = photo.height * zoom;
  const x0 = between(random, 0, photo.width - w);
  const y0 = between(random, 0, photo.height - h);
  const scale = sceneSize.height / h;
  const scene = blank(
    Math.round(w * scale),
    sceneSize.height,
    (x, y, c) => sample(photo, x0 + x / scale, y0 + y / scale, c) ?? 0,
  );
  return { scene, params: { zoom: +zoom.toFixed(2) } };
}

/** What to make: counts, the seed namespace, and optionally only some species (the others are left as they are). */
export interface StillsPlan {
  perSpecies: number;
  live: number;
  seedPrefix: string;
  only?: string[];
}

export async function makePadStills(photos: PadPhoto[], outDir: string, plan: StillsPlan): Promise<PadStill[]> {
  const { perSpecies, live, seedPrefix } = plan;
  const wanted = (species: string) => !plan.only || plan.only.includes(species);
  const stills: PadStill[] = [];
  const save = async (name: string, scene: Raw, random: () => number, entry: Omit<PadStill, 'image' | 'camera'>) => {
    const camera = drawCamera(random);
    await writeFile(path.join(outDir, name), await throughCamera(scene, camera, random));
    stills.push({ image: name, ...entry, camera });
  };
  // Round-robin over identities so each person appears about equally often, whatever their photo count.
  const rotation = (pool: PadPhoto[]) => {
    const identities = [...new Set(pool.map((p) => p.identity))];
    return (i: number, random: () => number) => {
      const own = pool.filter((p) => p.identity === identities[i % identities.length]);
      return own[Math.floor(random() * own.length)];
    };
  };
  const photoFor = rotation(photos);
  const roomyFor = rotation(photos.filter(isRoomy));
  const tightFor = rotation(photos.filter((p) => !isRoomy(p)));
  const roomyIdentities = new Set(photos.filter(isRoomy).map((p) => p.identity)).size;
  const liveKinds: Array<['live' | 'live-close', number, typeof photoFor]> = [
    ['live', live, roomyFor],
    ['live-close', Math.round(live / 3), tightFor],
  ];
  for (const [species, count, pick] of liveKinds) {
    if (!wanted(species)) continue;
    for (let i = 0; i < count; i++) {
      const random = seededRandom(seedOf(`${seedPrefix}:${species}:${i}`));
      const source = pick(i, random);
      const framed = frameLive(source.photo, random);
      await save(`${species}-${String(i).padStart(3, '0')}.jpg`, framed.scene, random, {
        live: true,
        species,
        source_identity: source.identity,
        source_photo: source.name,
        params: { ...framed.params, room: source.room },
      });
    }
  }
  for (const species of attackSpecies.filter(wanted)) {
    for (let i = 0; i < perSpecies; i++) {
      const random = seededRandom(seedOf(`${seedPrefix}:${species}:${i}`));
      const name = `${species}-${String(i).padStart(3, '0')}.jpg`;
      const make = surfaceOf[species];
      if (make) {
        const source = photoFor(i, random);
        const surface = await make(source.photo, random);
        const scene = holdSurface(surface, random, species);
        await save(name, scene, random, {
          live: false,
          species,
          source_identity: source.identity,
          source_photo: source.name,
          params: surface.params,
        });
      } else if (species === 'mask') {
        const source = photoFor(i, random);
        const others = photos.filter((p) => isRoomy(p) && p.identity !== source.identity);
        const wearer = others[Math.floor(random() * others.length)];
        const masked = wearMask(source, wearer, random);
        await save(name, masked.image, random, {
          live: false,
          species,
          source_identity: source.identity,
          source_photo: `${source.name} over ${wearer.name}`,
          params: masked.params,
        });
      } else {
        const count = 2 + Math.floor(random() * Math.min(3, roomyIdentities - 1));
        const members = Array.from({ length: count }, (_, k) => roomyFor(i + k, random));
        const averaged = averageFaces(members, random);
        await save(name, averaged.image, random, {
          live: false,
          species,
          source_identity: members.map((m) => m.identity).join('+'),
          source_photo: members.map((m) => m.name).join('+'),
          params: averaged.params,
        });
      }
    }
  }
  return stills;
}
