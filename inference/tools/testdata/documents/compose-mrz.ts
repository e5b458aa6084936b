/**
 * Builds the machine-readable zone of a synthetic document per ICAO 9303 (parts 4, 5 and 6), with
 * check digits computed by the same function the reader uses; generate-documents.ts then has the
 * independent `mrz` package confirm every clean MRZ, so a shared bug could not hide.
 */
import type { SyntheticIdentity } from './synthetic-identity';
import { checkDigit, type MrzFormat, mrzNameField } from '../../../src/tasks';

const yymmdd = (iso: string): string => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
const pad = (text: string, width: number): string => text.slice(0, width).padEnd(width, '<');
const code = (documentCode: string): string => pad(documentCode, 2);
const state = (icao: string): string => pad(icao, 3);
const sex = (s: SyntheticIdentity['sex']): string => (s === 'X' ? '<' : s);

export function composeMrz(format: MrzFormat, documentCode: string, id: SyntheticIdentity): string[] {
  const number = id.documentNumber;
  const birth = yymmdd(id.birthDate) + checkDigit(yymmdd(id.birthDate));
  const expiry = yymmdd(id.expiryDate) + checkDigit(yymmdd(id.expiryDate));
  const nationality = state(id.nationality.icao);
  if (format === 'TD3') {
    const personal = pad(id.optionalData, 14);
    const personalCheck = id.optionalData ? checkDigit(personal) : '<';
    const line2 = `${number}${checkDigit(number)}${nationality}${birth}${sex(id.sex)}${expiry}${personal}${personalCheck}`;
    const composite = checkDigit(line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 43));
    return [
      `${code(documentCode)}${state(id.issuer.icao)}${mrzNameField(id.surname, id.givenNames, 39)}`,
      line2 + composite,
    ];
  }
  if (format === 'TD2') {
    const line2 = `${number}${checkDigit(number)}${nationality}${birth}${sex(id.sex)}${expiry}${pad(id.optionalData, 7)}`;
    const composite = checkDigit(line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 35));
    return [
      `${code(documentCode)}${state(id.issuer.icao)}${mrzNameField(id.surname, id.givenNames, 31)}`,
      line2 + composite,
    ];
  }
  const line1 = `${code(documentCode)}${state(id.issuer.icao)}${number}${checkDigit(number)}${pad(id.optionalData, 15)}`;
  const line2Body = `${birth}${sex(id.sex)}${expiry}${nationality}${pad('', 11)}`;
  const composite = checkDigit(
    line1.slice(5, 30) + line2Body.slice(0, 7) + line2Body.slice(8, 15) + line2Body.slice(18, 29),
  );
  return [line1, line2Body + composite, mrzNameField(id.surname, id.givenNames, 30)];
}
