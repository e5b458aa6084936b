import type { RecognizedLine } from '../ocr/text-recognition';
import { readAddress } from './read-address';

const line = (text: string, x: number, y: number, width = 200, height = 26): RecognizedLine => ({
  text,
  score: 0.95,
  mrz: [],
  box: { cx: x + width / 2, cy: y, width, height, angle: 0, score: 0.9 },
});

describe('best-effort address from the visual zone', () => {
  it('takes the lines under the address label and splits postal code and city off the last one', () => {
    const lines = [
      line('Address/Adresse', 30, 100, 120, 18),
      line('171 ULICA FLORIANSKA', 30, 125),
      line('31-042 KRAKOW', 30, 156),
      line('Date of issue', 30, 202, 90, 18),
      line('PREFECTURE KRAKOW', 300, 215),
    ];
    expect(readAddress(lines, 'PL')).toEqual({
      line1: '171 ULICA FLORIANSKA',
      line2: null,
      city: 'KRAKOW',
      region: null,
      postal_code: '31-042',
      country: 'PL',
    });
  });

  it('answers null when no address label is printed', () => {
    expect(readAddress([line('PASSPORT', 30, 40), line('SMITH', 30, 90)], 'GB')).toBeNull();
  });
});

describe('postal codes of several shapes', () => {
  const last = (text: string) => readAddress([line('Address', 30, 100, 80, 18), line(text, 30, 125)], null);
  it.each([
    ['3511 LX UTRECHT', '3511 LX', 'UTRECHT'],
    ['411 38 GOTEBORG', '411 38', 'GOTEBORG'],
    ['T12 XK38 CORK', 'T12 XK38', 'CORK'],
    ['31042KRAKOW', '31042', 'KRAKOW'],
    ['31-042KRAKOW', '31-042', 'KRAKOW'],
    ['4000-069 PORTO', '4000-069', 'PORTO'],
  ])('splits "%s" into postal code and city', (text, postal, city) => {
    expect(last(text)).toMatchObject({ postal_code: postal, city, line1: null });
  });
});
