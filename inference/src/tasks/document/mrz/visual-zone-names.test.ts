import { MRZ_LAYOUTS } from './mrz-layouts';
import { readingOf, type LineReading } from './mrz-reading';
import { readMrz } from './read-mrz';
import { confirmNamesFromVisualZone, namesAreUnsure } from './visual-zone-names';
import { TD1_SPECIMEN } from './icao-specimens';

const NOW = new Date('2026-11-01T00:00:00Z');

function withUnsureK(): LineReading[][] {
  const rows = TD1_SPECIMEN.map((l) => readingOf(l, 0.95));
  // "ANNA<MARIA<" read as "ANNA<MARIAK": the filler after the given names taken for a K.
  rows[2][20] = { char: 'K', prob: 0.48, alternative: { char: '<', prob: 0.27 } };
  return rows.map((r) => [r]);
}

describe('the visual zone as a witness for names, which have no check digit', () => {
  it('asks the visual zone only when a name letter was read unsurely', () => {
    expect(
      namesAreUnsure(
        readMrz(
          MRZ_LAYOUTS.TD1,
          TD1_SPECIMEN.map((l) => [readingOf(l, 0.95)]),
          NOW,
        )!,
      ),
    ).toBe(false);
    expect(namesAreUnsure(readMrz(MRZ_LAYOUTS.TD1, withUnsureK(), NOW)!)).toBe(true);
  });

  it('takes the runner-up when that spells the given names printed in the visual zone', () => {
    const read = readMrz(MRZ_LAYOUTS.TD1, withUnsureK(), NOW)!;
    expect(read.parsed.fields.given_names).toBe('ANNA MARIAK');
    const confirmed = confirmNamesFromVisualZone(read, ['IDENTITY CARD', 'ERIKSSON', 'ANNA MARIA', 'UTOPIA'], NOW);
    expect(confirmed?.parsed.fields.given_names).toBe('ANNA MARIA');
    expect(confirmed?.parsed.fields.corrections).toContainEqual({ line: 2, index: 20, from: 'K', to: '<' });
  });

  it('keeps the MRZ reading when the visual zone confirms no other spelling', () => {
    const read = readMrz(MRZ_LAYOUTS.TD1, withUnsureK(), NOW)!;
    expect(confirmNamesFromVisualZone(read, ['IDENTITY CARD', 'ERIKSSON', 'ANNE MARIE'], NOW)).toBeNull();
  });
});
