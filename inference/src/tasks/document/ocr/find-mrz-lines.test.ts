import { TD1_SPECIMEN, TD3_SPECIMEN } from '../mrz/icao-specimens';
import { lineText, readingOf } from '../mrz/mrz-reading';
import { findMrzCandidates } from './find-mrz-lines';
import type { RecognizedLine } from './text-recognition';

const PITCH = 20;
const HEIGHT = 30;

/** A recognised line whose box holds `text` at the MRZ pitch, starting at x. */
const line = (text: string, x: number, y: number): RecognizedLine => {
  const width = text.length * PITCH + 0.6 * HEIGHT;
  return {
    text,
    score: 0.9,
    mrz: readingOf(text, 0.9),
    box: { cx: x + width / 2, cy: y, width, height: HEIGHT, angle: 0, score: 0.95 },
  };
};

describe('finding the machine-readable zone among the recognised lines', () => {
  it('finds a passport zone whose name row the detector cut short, and spans both rows to its full width', () => {
    const lines = [
      line('PASSPORT', 40, 40),
      line('ERIKSSON', 300, 200),
      line(TD3_SPECIMEN[0].slice(0, 26), 50, 600),
      line(TD3_SPECIMEN[1], 50, 650),
    ];
    const [candidate] = findMrzCandidates(lines);
    expect(candidate.layout.format).toBe('TD3');
    expect(candidate.rows.map((r) => lineText(r.reading))).toEqual([TD3_SPECIMEN[0].slice(0, 26), TD3_SPECIMEN[1]]);
    for (const row of candidate.rows) expect(row.fullBox.width).toBeGreaterThanOrEqual(44 * PITCH);
  });

  it('tells a TD1 card (three rows of 30) from text in the visual zone', () => {
    const lines = [
      line('IDENTITY CARD', 40, 40),
      line('D23145890', 300, 120),
      ...TD1_SPECIMEN.map((t, i) => line(t, 60, 400 + 50 * i)),
    ];
    const candidates = findMrzCandidates(lines);
    expect(candidates[0].layout.format).toBe('TD1');
    expect(candidates[0].rows).toHaveLength(3);
  });

  it('finds nothing on a page without MRZ-like rows', () => {
    expect(findMrzCandidates([line('Date of birth', 40, 40), line('12 AUG 1974', 40, 80)])).toEqual([]);
  });
});
