/**
 * The calibration documents: N of the labelled synthetic documents by a seeded shuffle, so the
 * same seed and labels.json always give the same N (sorted, for stable file numbering).
 */
import { seededRandom } from '../../../scripts/test-support/seeded-random';

export function pickDocuments(files: readonly string[], count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const order = [...files].sort();
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.slice(0, count).sort();
}
