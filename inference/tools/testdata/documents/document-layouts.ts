/**
 * The visual zones of the three synthetic document kinds, drawn as SVG at a fixed scale, plus
 * where the portrait and the MRZ go. Sizes follow ICAO 9303: a TD3 passport page is 125 x 88 mm,
 * a TD2 card 105 x 74 mm, a TD1 card 85.6 x 54 mm; MRZ characters are 2.54 mm apart.
 */
import { guilloche, labelled, printedDate, svgDocument, text } from './svg-text';
import type { SyntheticIdentity } from './synthetic-identity';
import type { MrzFormat } from '../../../src/tasks';

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface CardSide {
  width: number;
  height: number;
  svg: Buffer;
  portrait: Box | null;
  mrz: { left: number; top: number; pitch: number; lineGap: number } | null;
}

const MM_PER_CHAR = 2.54;

function background(width: number, height: number, random: () => number, hue: number): string {
  return (
    `<rect width="${width}" height="${height}" rx="18" fill="hsl(${hue},35%,90%)"/>` +
    guilloche(width, height, random, `hsl(${hue},45%,55%)`)
  );
}

function passportPage(
  id: SyntheticIdentity,
  random: () => number,
  hue: number,
  title: string,
  code: string,
  mm: { w: number; h: number },
  pxPerMm: number,
): CardSide {
  const width = Math.round(mm.w * pxPerMm);
  const height = Math.round(mm.h * pxPerMm);
  const x = Math.round(width * 0.33);
  const col2 = x + Math.round(width * 0.3);
  const row = (i: number): number => 100 + i * 50;
  const body = [
    background(width, height, random, hue),
    text(30, 45, title, 24, { weight: 'bold', fill: '#2b3a4a' }),
    text(Math.round(width * 0.45), 45, id.issuer.name, 16, { fill: '#2b3a4a' }),
    labelled(x, row(0), 'Type / Type', code),
    labelled(x + 130, row(0), 'Code / Code', id.issuer.icao),
    labelled(col2 + 40, row(0), 'No. / No.', id.documentNumber),
    labelled(x, row(1), 'Surname / Nom', id.surname),
    labelled(x, row(2), 'Given names / Prénoms', id.givenNames),
    labelled(x, row(3), 'Nationality / Nationalité', id.nationality.name.slice(0, 28)),
    labelled(x, row(4), 'Date of birth / Date de naissance', printedDate(id.birthDate, 'passport')),
    labelled(col2 + 40, row(4), 'Sex / Sexe', id.sex),
    labelled(x, row(5), 'Date of issue / Date de délivrance', printedDate(id.issueDate, 'passport')),
    labelled(col2 + 40, row(5), "Date of expiry / Date d'expiration", printedDate(id.expiryDate, 'passport')),
  ].join('');
  const pitch = MM_PER_CHAR * pxPerMm;
  return {
    width,
    height,
    svg: svgDocument(width, height, body),
    portrait: { left: 30, top: 80, width: Math.round(width * 0.27), height: Math.round(width * 0.27 * 1.28) },
    mrz: {
      left: Math.round((width - pitch * (code === 'P' ? 44 : 36)) / 2),
      top: height - Math.round(pxPerMm * 17),
      pitch,
      lineGap: Math.round(pxPerMm * 6.5),
    },
  };
}

function idCardFront(id: SyntheticIdentity, random: () => number, hue: number, pxPerMm: number): CardSide {
  const width = Math.round(85.6 * pxPerMm);
  const height = Math.round(54 * pxPerMm);
  const x = Math.round(width * 0.36);
  const row = (i: number): number => 95 + i * 56;
  const body = [
    background(width, height, random, hue),
    text(24, 42, 'IDENTITY CARD', 24, { weight: 'bold', fill: '#2b3a4a' }),
    text(x + 70, 42, id.issuer.name.slice(0, 30), 15, { fill: '#2b3a4a' }),
    labelled(x, row(0), 'Surname / Nom', id.surname),
    labelled(x, row(1), 'Given names / Prénoms', id.givenNames),
    labelled(x, row(2), 'Sex / Sexe', id.sex),
    labelled(x + 140, row(2), 'Nationality', id.nationality.icao),
    labelled(x + 300, row(2), 'Date of birth', printedDate(id.birthDate, 'card')),
    labelled(x, row(3), 'Document No.', id.documentNumber),
    labelled(x + 240, row(3), 'Expiry date', printedDate(id.expiryDate, 'card')),
  ].join('');
  return {
    width,
    height,
    svg: svgDocument(width, height, body),
    portrait: { left: 28, top: 80, width: Math.round(width * 0.3), height: Math.round(width * 0.3 * 1.28) },
    mrz: null,
  };
}

function idCardBack(id: SyntheticIdentity, random: () => number, hue: number, pxPerMm: number): CardSide {
  const width = Math.round(85.6 * pxPerMm);
  const height = Math.round(54 * pxPerMm);
  const body = [
    background(width, height, random, hue),
    text(28, 50, 'Address / Adresse', 13, { fill: '#55606b' }),
    text(28, 80, id.address.line1, 22, { weight: 'bold' }),
    text(28, 110, `${id.address.postalCode} ${id.address.city}`, 22, { weight: 'bold' }),
    labelled(28, 150, 'Date of issue', printedDate(id.issueDate, 'card'), 18),
    labelled(300, 150, 'Authority', `PREFECTURE ${id.address.city}`.slice(0, 26), 18),
  ].join('');
  const pitch = MM_PER_CHAR * pxPerMm;
  return {
    width,
    height,
    svg: svgDocument(width, height, body),
    portrait: null,
    mrz: {
      left: Math.round((width - pitch * 30) / 2),
      top: height - Math.round(pxPerMm * 19),
      pitch,
      lineGap: Math.round(pxPerMm * 5.6),
    },
  };
}

/** The sides that make up one document image (a TD1 card is photographed front and back). */
export function documentSides(
  format: MrzFormat,
  documentCode: string,
  id: SyntheticIdentity,
  random: () => number,
): CardSide[] {
  const hue = Math.floor(random() * 360);
  if (format === 'TD3')
    return [passportPage(id, random, hue, 'PASSPORT / PASSEPORT', documentCode, { w: 125, h: 88 }, 8)];
  if (format === 'TD2')
    return [passportPage(id, random, hue, 'RESIDENCE PERMIT', documentCode, { w: 105, h: 74 }, 9.5)];
  return [idCardFront(id, random, hue, 10), idCardBack(id, random, hue, 10)];
}
