import { TD3_SPECIMEN } from './icao-specimens';
import { MRZ_LAYOUTS } from './mrz-layouts';
import { alignTo, mergeRowReads } from './merge-readings';
import { lineText, readingOf, type LineReading } from './mrz-reading';

const withProb = (text: string, prob: number, at: Record<number, number> = {}): LineReading =>
  readingOf(text, prob).map((c, i) => ({ ...c, prob: at[i] ?? prob }));

describe('merging two reads of one MRZ row', () => {
  it('aligns a read that dropped a character instead of shifting everything after it', () => {
    const aligned = alignTo(readingOf('ABCDEF'), readingOf('ABDEF'));
    expect(aligned.map((c) => c?.char ?? '-').join('')).toBe('AB-DEF');
  });

  it('keeps, at each position, the more confident of the two characters and the other as runner-up', () => {
    const row = TD3_SPECIMEN[0];
    const a = withProb(row.replace('ERIKSSON', 'ER1KSSON'), 0.9, { 7: 0.4 });
    const b = withProb(row, 0.8);
    const merged = mergeRowReads(MRZ_LAYOUTS.TD3, 0, [a, b], [])!;
    expect(lineText(merged)).toBe(row);
    expect(merged[7].alternative).toEqual({ char: '1', prob: 0.4 });
  });

  it('merges a read that lost a leading character with one that kept it, without garbling the name', () => {
    const row = TD3_SPECIMEN[0];
    const merged = mergeRowReads(MRZ_LAYOUTS.TD3, 0, [withProb(row.slice(1), 0.95), withProb(row, 0.9)], [])!;
    expect(lineText(merged)).toBe(row);
  });
});
