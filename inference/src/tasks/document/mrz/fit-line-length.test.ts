import { fitLineLength } from './fit-line-length';
import { TD1_SPECIMEN, TD3_SPECIMEN } from './icao-specimens';
import { MRZ_LAYOUTS } from './mrz-layouts';
import { lineText, readingOf } from './mrz-reading';

const fit = (format: 'TD1' | 'TD3', line: number, text: string, known: string[] = []): string | null => {
  const out = fitLineLength(MRZ_LAYOUTS[format], line, readingOf(text), known);
  return out ? lineText(out) : null;
};

describe('repairing the length of an MRZ line', () => {
  it('restores a filler dropped from the personal-number run so the check digits line up again', () => {
    const dropped = TD3_SPECIMEN[1].replace('B<<<<<10', 'B<<<<10');
    expect(fit('TD3', 1, dropped)).toBe(TD3_SPECIMEN[1]);
  });

  it('removes a repeated filler from the same run', () => {
    const doubled = TD3_SPECIMEN[1].replace('B<<<<<10', 'B<<<<<<10');
    expect(fit('TD3', 1, doubled)).toBe(TD3_SPECIMEN[1]);
  });

  it('pads a short name line at its trailing fillers', () => {
    expect(fit('TD1', 2, TD1_SPECIMEN[2].slice(0, 27))).toBe(TD1_SPECIMEN[2]);
  });

  it('never leaves a filler where a composite check digit must stand', () => {
    const dropped = TD1_SPECIMEN[1].replace('UTO<<<<<<<<<<<6', 'UTO<<<<<<<<<<6');
    expect(fit('TD1', 1, dropped)).toBe(TD1_SPECIMEN[1]);
  });

  it('uses a check digit that spans lines once the other line is known', () => {
    // A filler lost between the two dates: only the composite (over lines 1 and 2) tells where.
    const line = '7408122F120415UTO<<<<<<<<<<<6'
      .replace('F120415', 'F1204159')
      .replace('UTO<<<<<<<<<<<6', 'UTO<<<<<<<<<<6');
    expect(fit('TD1', 1, line, [TD1_SPECIMEN[0]])).toBe(TD1_SPECIMEN[1]);
  });

  it('refuses a line too far from its length to repair honestly', () => {
    expect(fit('TD3', 1, TD3_SPECIMEN[1].slice(0, 30))).toBeNull();
  });
});
