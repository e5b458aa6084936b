import { correctMrz } from './correct-mrz';
import { TD1_SPECIMEN, TD3_SPECIMEN } from './icao-specimens';
import { MRZ_LAYOUTS } from './mrz-layouts';
import { readingOf, type LineReading } from './mrz-reading';

const FRENCH_TD3 = [TD3_SPECIMEN[0].replace('UTO', 'FRA'), TD3_SPECIMEN[1].replace('UTO', 'FRA')];

describe('fields with a closed list of values', () => {
  it('reads a first letter that no document code can start with as its look-alike (L for I)', () => {
    const lines = [TD1_SPECIMEN[0].replace(/^I/, 'L'), ...TD1_SPECIMEN.slice(1)];
    expect(
      correctMrz(
        MRZ_LAYOUTS.TD1,
        lines.map((l) => readingOf(l)),
      ).lines[0],
    ).toBe(TD1_SPECIMEN[0]);
  });

  it("turns a nationality that is no ICAO state code into the one the reader's runner-up spells", () => {
    const rows: LineReading[] = FRENCH_TD3.map((l) => readingOf(l, 0.95));
    rows[1][12] = { char: 'K', prob: 0.6, alternative: { char: 'A', prob: 0.3 } };
    expect(correctMrz(MRZ_LAYOUTS.TD3, rows).lines[1].slice(10, 13)).toBe('FRA');
  });

  it('leaves a state code alone when several listed codes are equally close', () => {
    const rows: LineReading[] = FRENCH_TD3.map((l) => readingOf(l, 0.95));
    rows[0][4] = { char: 'Q', prob: 0.9 };
    // "FRQ" is no code; FRO (Faroe Islands) is one look-alike away and nothing else is: it is taken.
    expect(correctMrz(MRZ_LAYOUTS.TD3, rows).lines[0].slice(2, 5)).toBe('FRO');
    rows[0][4] = { char: 'Z', prob: 0.9 };
    // "FRZ" has no look-alike listed and no runner-up: it stays, for the parser to reject.
    expect(correctMrz(MRZ_LAYOUTS.TD3, rows).lines[0].slice(2, 5)).toBe('FRZ');
  });
});
