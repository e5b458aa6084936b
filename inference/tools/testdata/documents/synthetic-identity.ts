/** Draws one invented document holder and document from a seeded stream. */
import { CITIES, GIVEN_NAMES, ISSUERS, SURNAMES } from './name-lists';

export interface SyntheticIdentity {
  surname: string;
  givenNames: string;
  sex: 'M' | 'F' | 'X';
  /** ISO dates. */
  birthDate: string;
  issueDate: string;
  expiryDate: string;
  issuer: (typeof ISSUERS)[number];
  nationality: (typeof ISSUERS)[number];
  documentNumber: string;
  /** Optional data (personal number) in the MRZ, '' when empty. */
  optionalData: string;
  address: { line1: string; postalCode: string; city: string };
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const int = (random: () => number, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function isoDay(year: number, dayOfYear: number): string {
  return new Date(Date.UTC(year, 0, dayOfYear)).toISOString().slice(0, 10);
}

/** Real issuers' number shapes differ; these three cover letters-then-digits, digits only and mixed. */
function documentNumber(random: () => number): string {
  const digits = (n: number): string => Array.from({ length: n }, () => int(random, 0, 9)).join('');
  const letters = (n: number): string =>
    Array.from({ length: n }, () => String.fromCharCode(65 + int(random, 0, 25))).join('');
  switch (int(random, 0, 2)) {
    case 0:
      return letters(2) + digits(7);
    case 1:
      return digits(9);
    default:
      return Array.from({ length: 9 }, () => pick(random, [...ALNUM])).join('');
  }
}

export function drawIdentity(random: () => number, referenceDate: string): SyntheticIdentity {
  const sex = random() < 0.05 ? 'X' : random() < 0.5 ? 'F' : 'M';
  const given = pick(random, GIVEN_NAMES[sex === 'X' ? pick(random, ['F', 'M'] as const) : sex]);
  const second = random() < 0.35 ? ` ${pick(random, [...GIVEN_NAMES.F, ...GIVEN_NAMES.M])}` : '';
  const refYear = Number(referenceDate.slice(0, 4));
  const expiryYear = refYear + int(random, 1, 9);
  const issuer = pick(random, ISSUERS);
  const place = pick(random, CITIES);
  return {
    surname: pick(random, SURNAMES),
    givenNames: given + second,
    sex,
    birthDate: isoDay(int(random, 1942, refYear - 18), int(random, 1, 365)),
    expiryDate: isoDay(expiryYear, int(random, 1, 365)),
    issueDate: isoDay(expiryYear - 10, int(random, 1, 365)),
    issuer,
    nationality: random() < 0.85 ? issuer : pick(random, ISSUERS),
    documentNumber: documentNumber(random),
    optionalData: random() < 0.5 ? '' : String(int(random, 10_000_000, 99_999_999)),
    address: { line1: `${int(random, 1, 180)} ${place.street}`, postalCode: place.postal, city: place.city },
  };
}
