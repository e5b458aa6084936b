/**
 * The head-pose estimate's error on the synthetic liveness heads, whose pose is known: each
 * liveness source rendered by the paced performer (scripts/test-support/paced-performer.ts) over a
 * grid of yaw and pitch, read by the real FaceMesh in the real inference service, and the 3D fit
 * (`headRotation`), the cylinder model (`headPose`) and its yaw converted for the nose
 * (`turnFromCylinderYaw`, what the paced check judges) compared with the pose asked for.
 * Pitch is measured against the source's frontal frame, as the paced check measures it against its
 * frontal baseline. Run: `npx tsx inference/tools/pose-error/measure-pose-error.ts [out.json]`.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SyntheticHead } from '../../../scripts/test-support/paced-performer';
import { createInferenceClient } from '../../src/client/inference-client';
import { startInferenceServer } from '../../src/grpc/inference-server';
import { createRemoteModelRunner } from '../../src/runtime/remote-model-runner';
import { analyseFaces, decodeUpload, headPose, headRotation, turnFromCylinderYaw } from '../../src/tasks';
import { livenessSources } from '../testdata/faces/face-sources';

const yaws = [-36, -30, -24, -18, -12, -6, 0, 6, 12, 18, 24, 30, 36];
const pitches = [-15, -9, -3, 0, 3, 9, 15];
const estimators: Record<string, (mesh: Parameters<typeof headPose>[0]) => { yaw: number; pitch: number }> = {
  cylinder: headPose,
  // The cylinder's yaw converted to the turn of a face shaped like the canonical one: what the paced check judges.
  turn: (mesh) => {
    const pose = headPose(mesh);
    return { yaw: turnFromCylinderYaw(pose.yaw), pitch: pose.pitch };
  },
  rigid3d: headRotation,
};

interface Reading {
  subject: string;
  yaw: number;
  pitch: number;
  estimates: Record<string, { yaw: number; pitch: number } | null>;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : Number.NaN;
};

async function main() {
  const server = await startInferenceServer({
    repository: path.resolve(__dirname, '../../../models'),
    port: 0,
    host: '127.0.0.1',
    metricsPort: null,
    models: ['face-detection', 'face-landmarks'],
  });
  const client = createInferenceClient({ address: `127.0.0.1:${server.port}` });
  const runner = await createRemoteModelRunner(client);
  const readings: Reading[] = [];
  try {
    for (const source of livenessSources) {
      const head = new SyntheticHead(true, { subject: source.identity });
      const grid = yaws.flatMap((yaw) => pitches.map((pitch) => ({ yaw, pitch })));
      const images = await Promise.all(
        grid.map(async (pose, i) =>
          decodeUpload(runner, await head.frame({ ...pose, mouth: 0 }), `${source.identity} ${i}`),
        ),
      );
      const faces = await analyseFaces(runner, images);
      const frontal = faces[grid.findIndex((p) => p.yaw === 0 && p.pitch === 0)];
      grid.forEach((pose, i) => {
        const face = faces[i];
        const estimates = Object.fromEntries(
          Object.entries(estimators).map(([name, estimate]) => {
            if (!face || !frontal) return [name, null];
            const base = estimate(frontal.landmarks.mesh);
            const read = estimate(face.landmarks.mesh);
            return [name, { yaw: read.yaw, pitch: read.pitch - base.pitch }];
          }),
        );
        readings.push({ subject: source.identity, ...pose, estimates });
      });
    }
  } finally {
    client.close();
    await server.stop();
  }
  const summary = summarise(readings);
  console.log(JSON.stringify(summary, null, 2));
  const out = process.argv[2];
  if (out) await writeFile(out, JSON.stringify({ yaws, pitches, summary, readings }, null, 2));
}

/** Per subject and estimator: frames read, the absolute error's median and 90th percentile, and the gain (read over asked, least squares). */
function summarise(readings: Reading[]) {
  const subjects = [...new Set(readings.map((r) => r.subject))];
  return subjects.flatMap((subject) =>
    Object.keys(estimators).map((name) => {
      const own = readings.filter((r) => r.subject === subject && r.estimates[name]);
      const axis = (key: 'yaw' | 'pitch') => {
        const errors = own.map((r) => Math.abs(r.estimates[name]![key] - r[key]));
        const asked = own.map((r) => r[key]);
        const read = own.map((r) => r.estimates[name]![key]);
        const gain = asked.reduce((s, a, k) => s + a * read[k], 0) / asked.reduce((s, a) => s + a * a, 0);
        // The spread once the gain is taken out: what a line could be narrowed to with a calibrated scale.
        const residual = asked.map((a, k) => Math.abs(read[k] - gain * a));
        const round = (v: number) => Math.round(v * 10) / 10;
        return {
          medianError: round(quantile(errors, 0.5)),
          p90Error: round(quantile(errors, 0.9)),
          maxError: round(Math.max(...errors)),
          gain: Math.round(gain * 100) / 100,
          p90AfterGain: round(quantile(residual, 0.9)),
        };
      };
      return {
        subject,
        estimator: name,
        frames: own.length,
        of: readings.filter((r) => r.subject === subject).length,
        yaw: axis('yaw'),
        pitch: axis('pitch'),
      };
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
