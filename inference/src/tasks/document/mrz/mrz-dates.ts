/**
 * MRZ dates carry two-digit years. A birth year cannot be in the future, so it falls back a
 * century when 20YY would be; an expiry is at most a few decades ahead, so 20YY unless that is
 * implausibly far away.
 */
const MAX_YEARS_TO_EXPIRY = 50;

function isoDate(year: number, yymmdd: string): string | null {
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

export function birthDateFromMrz(yymmdd: string, now: Date): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const thisYear = now.getUTCFullYear();
  const year = 2000 + yy > thisYear ? 1900 + yy : 2000 + yy;
  const iso = isoDate(year, yymmdd);
  return iso !== null && iso <= now.toISOString().slice(0, 10) ? iso : null;
}

export function expiryDateFromMrz(yymmdd: string, now: Date): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const year = 2000 + yy > now.getUTCFullYear() + MAX_YEARS_TO_EXPIRY ? 1900 + yy : 2000 + yy;
  return isoDate(year, yymmdd);
}

/** Expired means the expiry day is over: a document is still valid on its expiry date. */
export function isExpired(expiryIso: string, now: Date): boolean {
  return expiryIso < now.toISOString().slice(0, 10);
}
