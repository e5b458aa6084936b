/**
 * `npm run eval -- --task document [--labels <labels.json>] [--limit N] [--variant v]`
 * Runs the real document check on every labelled image and reports per-field exact reads, the
 * verdict confusion per variant and, as a curve, how the MRZ row-confidence line separates
 * readable MRZs (clean, expired, bad check digit, no face) from unreadable ones (blurred).
 * Without --labels it uses (and if needed generates) the synthetic set.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { declaredTypeOf, type DocumentLabels } from '../../testdata/documents/document-labels';
import { documentTestdataDir, generateDocumentTestdata } from '../../testdata/documents/generate-documents';
import type { EvalTask, ScoredTrial } from '../eval-task';
import { resolveBeside } from '../read-jsonl';
import { describeDocumentSummary, scoreDocument, summariseDocuments, type DocumentResult } from './document-scoring';
import { textRecognitionModel, verifyDocument } from '../../../src/tasks';

async function loadLabels(file: string | undefined): Promise<{ file: string; labels: DocumentLabels }> {
  if (!file) {
    const labels = await generateDocumentTestdata();
    return { file: path.join(documentTestdataDir, 'labels.json'), labels };
  }
  return { file, labels: JSON.parse(await readFile(file, 'utf8')) as DocumentLabels };
}

export const documentEval: EvalTask = {
  name: 'document',
  usage: '[--labels <labels.json>] [--limit N] [--variant clean|bad-check-digit|expired|blurred-mrz|no-face]',
  models: ['text-detection', 'text-recognition', 'face-detection'],
  async run({ runner, args, log }) {
    const { file, labels } = await loadLabels(args.labels);
    let documents = labels.documents.filter((d) => !args.variant || d.variant === args.variant);
    if (args.limit) documents = documents.slice(0, Number(args.limit));
    const now = new Date(`${labels.reference_date}T12:00:00Z`);
    const results: DocumentResult[] = [];
    for (const label of documents) {
      const image = await readFile(resolveBeside(file, label.file));
      const started = performance.now();
      const out = await verifyDocument(runner, { image, now, declaredType: declaredTypeOf(label) });
      const result = scoreDocument(label, out, performance.now() - started);
      results.push(result);
      if (result.reason !== result.expectedReason)
        log(
          `  ${label.file}: expected ${result.expectedReason ?? 'PASS'}, got ${result.reason ?? 'PASS'} (${out.detail})`,
        );
    }
    const summary = summariseDocuments(results);
    // Readable (genuine) vs unreadable MRZs, scored by the weakest row's confidence.
    const trials: ScoredTrial[] = results.map((r) => ({
      id: r.file,
      score: r.minRowConfidence,
      genuine: r.variant !== 'blurred-mrz',
      kind: r.variant,
    }));
    const config = runner.config(textRecognitionModel);
    return {
      trials,
      decision: {
        score: 'mrz_min_row_confidence',
        threshold: config.thresholds?.line_score ?? 0.5,
        comparison: 'gte',
        configuredIn: `models/${textRecognitionModel}/${config.version}/config.json thresholds.line_score`,
      },
      vocabulary: {
        falseAccept: 'unreadable MRZ judged readable',
        falseReject: 'readable MRZ called DOCUMENT_UNREADABLE',
      },
      summary: { labels: file, reference_date: labels.reference_date, documents: summary, results },
      report: describeDocumentSummary(summary),
    };
  },
};
