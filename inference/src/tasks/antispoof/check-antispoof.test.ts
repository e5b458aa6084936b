import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import {
  faceImage,
  faceTestRunner,
  livenessTestdataDir,
  type ServiceTestRunner,
} from '../../../test/support/face-fixtures';
import { padTestdataDir } from '../../../tools/testdata/pad/generate-pad-testdata';
import type { ModelRunner } from '../../runtime/model-runner';
import { decodeRgbImage } from '../../images/decode-image';
import { detectFaces } from '../face/detect-faces';
import { checkAntispoof, framesScoreName, quantile } from './check-antispoof';
import { findFaceBoxes } from './find-face-box';
import { padLines, padModels } from './pad-ensemble';
import { spreadFrames } from './spread-frames';

let runner: ServiceTestRunner;
beforeAll(async () => {
  runner = await faceTestRunner(['face-detection', 'face-landmarks', ...padModels, 'antispoof', 'passive-liveness']);
}, 120_000);
afterAll(() => runner?.close());

async function padStill(name: string): Promise<Uint8Array> {
  const file = path.join(padTestdataDir, name);
  if (!existsSync(file)) throw new Error(`${file} missing: run \`npm run testdata:pad-sample\` (set-up does)`);
  return new Uint8Array(await readFile(file));
}

async function liveSequence(): Promise<Uint8Array[]> {
  const first = JSON.parse(
    (await readFile(path.join(livenessTestdataDir, 'sequences.jsonl'), 'utf8')).split('\n')[0],
  ) as { frames: string[] };
  return Promise.all(first.frames.map(async (f) => new Uint8Array(await readFile(path.join(livenessTestdataDir, f)))));
}

/** The same runner with some of the pair's thresholds replaced, as another config.json would serve them. */
function withThresholds(base: ModelRunner, thresholds: Record<string, number>): ModelRunner {
  return {
    infer: (name, inputs, options) => base.infer(name, inputs, options),
    config: (name) => {
      const config = base.config(name);
      return (padModels as readonly string[]).includes(name)
        ? { ...config, thresholds: { ...config.thresholds, ...thresholds } }
        : config;
    },
  };
}

/** The same runner as a service started without the MiniFASNet pair (INFERENCE_MODELS) would be. */
function withoutPadModels(base: ModelRunner): ModelRunner {
  return {
    infer: (name, inputs, options) => base.infer(name, inputs, options),
    config: (name) => {
      if ((padModels as readonly string[]).includes(name))
        throw new Error(`the inference service serves no model "${name}"`);
      return base.config(name);
    },
  };
}

describe('antispoof with MiniFASNet in the real inference service', () => {
  it.each(['live-000.jpg', 'live-001.jpg', 'live-003.jpg'])(
    'passes the live control %s, photographed through the camera path',
    async (name) => {
      const out = await checkAntispoof(runner, { selfie: await padStill(name) });
      const selfie = out.scores.find((s) => s.name === 'pad_selfie')!;
      expect({ verdict: out.verdict, above: selfie.value >= selfie.threshold }).toEqual({
        verdict: 'PASS',
        above: true,
      });
    },
  );

  it.each(['print-halftone-000.jpg', 'print-photo-bent-001.jpg', 'screen-subpixel-003.jpg', 'screen-hi-ppi-001.jpg'])(
    'refuses the recaptured %s as SPOOF_DETECTED, its score below the line',
    async (name) => {
      const out = await checkAntispoof(runner, { selfie: await padStill(name) });
      expect(out).toMatchObject({ verdict: 'FAIL', reason: 'SPOOF_DETECTED', retake_reason: null });
      const selfie = out.scores.find((s) => s.name === 'pad_selfie')!;
      expect(selfie.value).toBeLessThan(selfie.threshold);
    },
  );

  it('scores the selfie and the configured number of liveness frames spread across the challenge, each with its line', async () => {
    const frames = await liveSequence();
    const out = await checkAntispoof(runner, {
      selfie: await faceImage('bearded-man__original.jpg'),
      frames,
    });
    const lines = padLines(runner);
    const scored = spreadFrames(frames, lines.framesScored).map((f) => f.index);
    expect(scored.length).toBe(Math.min(frames.length, lines.framesScored));
    expect(out.scores.map((s) => [s.name, s.threshold, s.comparison])).toEqual([
      ['selfie_crop_room', lines.cropRoom, 'gte'],
      ['pad_selfie', lines.realScore, 'gte'],
      [framesScoreName(lines.framesQuantile), lines.framesScore, 'gte'],
      ...scored.map((i) => [`pad_frame_${i}`, lines.frameScore, 'gte']),
    ]);
    expect(out.verdict).toBe(out.scores.every((s) => s.value >= s.threshold) ? 'PASS' : 'FAIL');
  });

  it('judges the frames by the configured quantile of their scores: the previous rule (five frames, median) is still served by its config', async () => {
    const frames = await liveSequence();
    const selfie = await faceImage('bearded-man__original.jpg');
    const previous = await checkAntispoof(
      withThresholds(runner, {
        frames_scored: 5,
        frames_quantile: 0.5,
        min_frames_score: 0.1,
        min_frame_score: 0.02,
      }),
      { selfie, frames },
    );
    expect(previous.scores.map((s) => s.name)).toEqual([
      'selfie_crop_room',
      'pad_selfie',
      'pad_frames_median',
      ...[0, 3, 5, 8, 10].map((i) => `pad_frame_${i}`),
    ]);
    const perFrame = previous.scores.filter((s) => s.name.startsWith('pad_frame_')).map((s) => s.value);
    expect(previous.scores.find((s) => s.name === 'pad_frames_median')!.value).toBeCloseTo(quantile(perFrame, 0.5), 6);
    const strict = await checkAntispoof(withThresholds(runner, { frames_quantile: 0, min_frames_score: 0.999 }), {
      selfie,
      frames,
    });
    expect(strict).toMatchObject({ verdict: 'FAIL', reason: 'SPOOF_DETECTED' });
  });

  it('refuses a selfie with no face as FACE_NOT_DETECTED, never a pass', async () => {
    const blank = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 200, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    const out = await checkAntispoof(runner, { selfie: new Uint8Array(blank), frames: await liveSequence() });
    expect(out).toMatchObject({ verdict: 'FAIL', reason: 'FACE_NOT_DETECTED', scores: [] });
  });

  it('finds a small face in a large photo on the retry at a larger size, which the first pass misses', async () => {
    const face = await sharp(Buffer.from(await faceImage('bearded-man__original.jpg')))
      .resize(80)
      .toBuffer();
    const large = await sharp({
      create: { width: 2400, height: 1800, channels: 3, background: { r: 120, g: 130, b: 140 } },
    })
      .composite([{ input: face, left: 1500, top: 300 }])
      .jpeg()
      .toBuffer();
    const image = await decodeRgbImage(new Uint8Array(large));
    expect((await detectFaces(runner, [image]))[0]).toEqual([]);
    const [box] = await findFaceBoxes(runner, [image]);
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThan(1500);
    expect(box!.y).toBeGreaterThan(300);
  });

  describe('a selfie whose face fills the frame', () => {
    async function tightSelfie(): Promise<Uint8Array> {
      const bytes = await faceImage('astronaut__original.jpg');
      const [box] = await findFaceBoxes(runner, [await decodeRgbImage(bytes)]);
      const side = Math.round(box!.width * 1.3);
      const left = Math.round(box!.x + box!.width / 2 - side / 2);
      const top = Math.round(box!.y + box!.height / 2 - side / 2);
      return new Uint8Array(
        await sharp(Buffer.from(bytes)).extract({ left, top, width: side, height: side }).jpeg().toBuffer(),
      );
    }

    it('lets the live liveness frames decide and pass it, asking for no retake and never scoring the selfie', async () => {
      const out = await checkAntispoof(runner, { selfie: await tightSelfie(), frames: await liveSequence() });
      expect(out).toMatchObject({ verdict: 'PASS', reason: null, retake_reason: null });
      const room = out.scores.find((s) => s.name === 'selfie_crop_room')!;
      expect(room.value).toBeLessThan(room.threshold);
      expect(out.scores.map((s) => s.name)).not.toContain('pad_selfie');
      expect(out.detail).toMatch(/liveness frames decide/);
    });

    it('spares a tight live portrait of the PAD set (live-close-000) a retake when live frames are there to decide', async () => {
      const out = await checkAntispoof(runner, {
        selfie: await padStill('live-close-000.jpg'),
        frames: await liveSequence(),
      });
      expect(out).toMatchObject({ verdict: 'PASS', retake_reason: null });
    });

    it('without frames to score instead, is refused as FACE_NOT_DETECTED with the retake, never passed', async () => {
      const out = await checkAntispoof(runner, { selfie: await tightSelfie() });
      expect(out).toMatchObject({
        verdict: 'FAIL',
        reason: 'FACE_NOT_DETECTED',
        retake_reason: 'FACE_TOO_CLOSE',
      });
    });
  });

  it('runs the legacy check (antispoof + passive-liveness) when the service does not serve the MiniFASNet pair', async () => {
    const out = await checkAntispoof(withoutPadModels(runner), {
      selfie: await faceImage('astronaut__original.jpg'),
    });
    expect(out.scores.map((s) => s.name)).toEqual(['real_score', 'passive_liveness']);
  });
});
