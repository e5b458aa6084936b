import { readFile } from 'node:fs/promises';
import { decodeRgbImage } from '../../../src/images/decode-image';
import { analyseFaces, describeFaces, faceEmbeddingModel, findPortrait, servedMetric } from '../../../src/tasks';
import type { ModelRunner } from '../../../src/runtime/model-runner';
import type { EvalTask, ScoredTrial } from '../eval-task';
import { readJsonl, resolveBeside } from '../read-jsonl';
import { describeFaceLine, type LineTrial } from './face-line-report';
import { generateFaceLineTestdata } from '../../testdata/face-line/generate-face-line-testdata';

export const defaultFaceLinePairs = '.state/testdata/face-line/pairs.jsonl';

interface Row {
  document: string;
  selfie: string;
  same: boolean;
  kind: string;
  split: string;
  identities: [string, string];
}

function checkRow(row: unknown, line: number): Row {
  const r = row as Partial<Row>;
  if (
    typeof r.document !== 'string' ||
    typeof r.selfie !== 'string' ||
    typeof r.same !== 'boolean' ||
    typeof r.split !== 'string' ||
    !Array.isArray(r.identities)
  ) {
    throw new Error(`pairs line ${line}: needs {"document", "selfie", "same", "split", "identities"}`);
  }
  return { ...(r as Row), kind: typeof r.kind === 'string' ? r.kind : r.same ? 'genuine' : 'impostor' };
}

/** The descriptor the face_match check would compute for these bytes, or null without a face. */
async function describe(runner: ModelRunner, bytes: Uint8Array): Promise<Float32Array | null> {
  const image = await decodeRgbImage(bytes);
  const [analysed] = await analyseFaces(runner, [image]);
  return analysed ? (await describeFaces(runner, [{ image, analysed }]))[0] : null;
}

/**
 * The face line as the service meets it: each document is read for its portrait exactly as the
 * document check does (find-portrait's crop, re-encoded as JPEG), and that portrait is compared
 * with a selfie by the face_match pipeline (detect, FaceMesh, the served alignment and model, its
 * metric). Trials are the `report` split; the `calibration` split (other people) is summarised
 * beside it, since that is the half the line is checked on.
 */
export const faceLineEval: EvalTask = {
  name: 'face_line',
  usage: `[--pairs <pairs.jsonl>] [--also 0.45,0.6]   default ${defaultFaceLinePairs} (npm run testdata:face-line); --also: errors at other lines too`,
  models: ['face-detection', 'face-landmarks', 'face-embedding'],
  async run({ runner, args, log }) {
    const file = args.pairs ?? defaultFaceLinePairs;
    // The project's own set is made on demand (idempotent); a file of one's own is read as given.
    if (!args.pairs) await generateFaceLineTestdata();
    const rows = await readJsonl(file, checkRow);
    const { metric, matchLine } = servedMetric(runner);
    const documents = [...new Set(rows.map((r) => r.document))];
    const selfies = [...new Set(rows.map((r) => r.selfie))];
    log(
      `face_line: ${rows.length} pairs, ${documents.length} documents, ${selfies.length} selfies; ${metric.name}, line ${matchLine}`,
    );
    const descriptors = new Map<string, Float32Array | null>();
    const unread: string[] = [];
    for (const name of documents) {
      const page = await decodeRgbImage(await readFile(resolveBeside(file, name)));
      const portrait = await findPortrait(runner, page);
      if (!portrait) unread.push(name);
      descriptors.set(`doc:${name}`, portrait ? await describe(runner, portrait.jpeg) : null);
    }
    for (const name of selfies)
      descriptors.set(`selfie:${name}`, await describe(runner, await readFile(resolveBeside(file, name))));
    const all: LineTrial[] = rows.map((r) => {
      const a = descriptors.get(`doc:${r.document}`);
      const b = descriptors.get(`selfie:${r.selfie}`);
      return {
        id: `${r.document} | ${r.selfie}`,
        score: a && b ? metric.compare(a, b) : null,
        genuine: r.same,
        kind: r.kind,
        split: r.split,
        identities: r.identities,
      };
    });
    const config = runner.config(faceEmbeddingModel);
    const trials: ScoredTrial[] = all
      .filter((t) => t.split === 'report')
      .map(({ id, score, genuine, kind }) => ({ id, score, genuine, kind }));
    const alsoAt = (args.also ?? '').split(',').filter(Boolean).map(Number);
    if (alsoAt.some(Number.isNaN)) throw new Error('--also takes numbers separated by commas');
    const { lines, figures } = describeFaceLine(all, matchLine, metric.comparison, alsoAt);
    const noFace = [...descriptors.entries()].filter(([, d]) => !d).map(([k]) => k);
    return {
      trials,
      decision: {
        score: metric.name,
        threshold: matchLine,
        comparison: metric.comparison,
        configuredIn: `models/face-embedding/${config.version}/config.json thresholds.${metric.name === 'cosine_similarity' ? 'match_similarity' : 'match_distance'}`,
      },
      vocabulary: { falseAccept: 'different people matched', falseReject: 'same person refused' },
      summary: {
        model: { name: config.name, version: config.version, source: config.source.path },
        face_line: figures,
        documents_without_portrait: unread,
        images_without_face: noFace,
        all_trials: all,
      },
      report: [...lines, ...(noFace.length ? [`no face found in: ${noFace.join(', ')}`] : [])],
    };
  },
};
