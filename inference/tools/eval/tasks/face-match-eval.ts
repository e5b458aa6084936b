import { readFile } from 'node:fs/promises';
import { decodeRgbImage } from '../../../src/images/decode-image';
import type { EvalTask, ScoredTrial } from '../eval-task';
import { readJsonl, requireFlag, resolveBeside } from '../read-jsonl';
import {
  analyseFaces,
  servedMetric,
  alignmentOf,
  describeFaces,
  type FaceAlignment,
  faceEmbeddingModel,
} from '../../../src/tasks';

interface PairRow {
  a: string;
  b: string;
  same: boolean;
  kind: string;
}

function checkPair(row: unknown, line: number): PairRow {
  const r = row as Partial<PairRow>;
  if (typeof r.a !== 'string' || typeof r.b !== 'string' || typeof r.same !== 'boolean') {
    throw new Error(`pairs line ${line}: needs {"a": path, "b": path, "same": boolean}`);
  }
  return {
    a: r.a,
    b: r.b,
    same: r.same,
    kind: typeof r.kind === 'string' ? r.kind : r.same ? 'genuine' : 'impostor',
  };
}

const alignments: FaceAlignment[] = ['eyes', 'dlib-chip', 'box'];

/**
 * Scores every pair with the same pipeline as the face_match check (detect, FaceMesh, the served
 * model's alignment, embedding, its metric); each image is embedded once however many pairs use
 * it. `--align eyes|dlib-chip|box` overrides the alignment, to compare them on one set.
 */
export const faceMatchEval: EvalTask = {
  name: 'face_match',
  usage: '--pairs <pairs.jsonl> [--align eyes|dlib-chip|box]   lines {"a": img, "b": img, "same": bool, "kind": str}',
  models: ['face-detection', 'face-landmarks', 'face-embedding'],
  async run({ runner, args, log }) {
    const file = requireFlag(args, 'pairs');
    const pairs = await readJsonl(file, checkPair);
    const images = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
    log(`face_match: ${pairs.length} pairs over ${images.length} images`);
    const alignment = (args.align ?? alignmentOf(runner)) as FaceAlignment;
    if (!alignments.includes(alignment)) throw new Error(`--align must be one of ${alignments.join(', ')}`);
    const { metric, matchLine } = servedMetric(runner);
    log(`face_match: ${alignment} alignment, ${metric.name}`);
    const embeddings = new Map<string, Float32Array | null>();
    for (const name of images) {
      const image = await decodeRgbImage(await readFile(resolveBeside(file, name)));
      const [analysed] = await analyseFaces(runner, [image]);
      embeddings.set(name, analysed ? (await describeFaces(runner, [{ image, analysed }], alignment))[0] : null);
    }
    const trials: ScoredTrial[] = pairs.map((p) => {
      const a = embeddings.get(p.a);
      const b = embeddings.get(p.b);
      return {
        id: `${p.a} | ${p.b}`,
        score: a && b ? metric.compare(a, b) : null,
        genuine: p.same,
        kind: p.kind,
      };
    });
    const missing = images.filter((i) => !embeddings.get(i));
    const config = runner.config(faceEmbeddingModel);
    return {
      trials,
      decision: {
        score: metric.name,
        threshold: matchLine,
        comparison: metric.comparison,
        configuredIn: `models/face-embedding/${config.version}/config.json thresholds.${metric.name === 'cosine_similarity' ? 'match_similarity' : 'match_distance'}`,
      },
      vocabulary: { falseAccept: 'different people accepted', falseReject: 'same person rejected' },
      summary: {
        model: { name: config.name, version: config.version, source: config.source.path },
        alignment,
        images_without_face: missing,
      },
      report: missing.length ? [`no face found in: ${missing.join(', ')}`] : [],
    };
  },
};
