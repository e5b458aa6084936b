const MONTHS: Record<string, string> = {
  jan: '01',
  feb: '02',
  mar: '03',
  apr: '04',
  may: '05',
  jun: '06',
  jul: '07',
  aug: '08',
  sep: '09',
  oct: '10',
  nov: '11',
  dec: '12',
};

/** A year range never expands past this many years (lists write "1950 to 1990" for unknowns). */
const MAX_RANGE_YEARS = 12;

/**
 * The dates a list's free-text DOB names, at their own precision (YYYY, YYYY-MM, YYYY-MM-DD):
 * "10 Dec 1948", "Dec 1948", "1948", "1960 to 1962" (each year), "circa 1955" (one year either side).
 */
export function partialDates(text: string): string[] {
  const found = new Set<string>();
  const full = /\b(\d{1,2}) (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* (\d{4})\b/gi;
  const monthYear = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* (\d{4})\b/gi;
  // "01 Jan 1960 to 31 Dec 1962" and "Jan 1960 to Dec 1962" are year ranges too.
  const yearsOnly = text.replace(
    /\b(?:\d{1,2} )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* (\d{4})\b/gi,
    '$1',
  );
  const range = /\b(\d{4}) to (\d{4})\b/i.exec(yearsOnly);
  if (range) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    if (to >= from && to - from <= MAX_RANGE_YEARS) for (let year = from; year <= to; year++) found.add(String(year));
    else found.add(String(from));
    return [...found];
  }
  let rest = text;
  for (const match of text.matchAll(full)) {
    found.add(`${match[3]}-${MONTHS[match[2].toLowerCase()]}-${match[1].padStart(2, '0')}`);
    rest = rest.replace(match[0], ' ');
  }
  for (const match of rest.matchAll(monthYear)) {
    found.add(`${match[2]}-${MONTHS[match[1].toLowerCase()]}`);
    rest = rest.replace(match[0], ' ');
  }
  for (const match of rest.matchAll(/\b(1[89]\d\d|20\d\d)\b/g)) {
    const year = Number(match[1]);
    found.add(String(year));
    if (/circa|approx/i.test(text)) {
      found.add(String(year - 1));
      found.add(String(year + 1));
    }
  }
  return [...found];
}

/** An ISO date or partial date (YYYY, YYYY-MM, YYYY-MM-DD); anything else is dropped. */
export function isoPartialDate(value: string): string | null {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(value.trim());
  if (!match) return null;
  if (match[3] && match[3] !== '00') return `${match[1]}-${match[2]}-${match[3]}`;
  if (match[2] && match[2] !== '00') return `${match[1]}-${match[2]}`;
  return match[1];
}
