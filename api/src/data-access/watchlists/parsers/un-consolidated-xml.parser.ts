import { WatchlistEntry } from '../../../domain/sanctions/watchlist-entry';
import { countryCodes } from './country-code';
import { isoPartialDate } from './partial-date';
import { findAll, parseXml, text, XmlNode } from './xml-document';
import { lineOfNthTag, watchlistFileError } from './watchlist-file-error';

function unDates(individual: XmlNode): string[] {
  const dates: string[] = [];
  for (const dob of findAll(individual, 'INDIVIDUAL_DATE_OF_BIRTH')) {
    const exact = isoPartialDate(text(dob, 'DATE'));
    if (exact) dates.push(exact);
    else if (text(dob, 'YEAR')) dates.push(text(dob, 'YEAR'));
    const from = Number(text(dob, 'FROM_YEAR'));
    const to = Number(text(dob, 'TO_YEAR'));
    if (from && to && to >= from && to - from <= 12) for (let year = from; year <= to; year++) dates.push(String(year));
  }
  return [...new Set(dates)];
}

/**
 * The UN Security Council consolidated list: INDIVIDUALS/INDIVIDUAL with FIRST..FOURTH_NAME, the
 * original-script name, aliases (those of quality "Low" are weak aliases and not matched on),
 * dates of birth (exact, year, or a year range) and nationalities.
 */
export function parseUnConsolidatedXml(xml: string): WatchlistEntry[] {
  const root = parseXml(xml);
  if (!findAll(root, 'CONSOLIDATED_LIST').length)
    throw watchlistFileError(1, 'no CONSOLIDATED_LIST element (is this the UN consolidated XML?)');
  return findAll(findAll(root, 'INDIVIDUALS'), 'INDIVIDUAL').map((individual, index) => {
    const id = text(individual, 'DATAID');
    const primary = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME']
      .map((part) => text(individual, part))
      .filter(Boolean)
      .join(' ');
    if (!id || !primary)
      throw watchlistFileError(
        lineOfNthTag(xml, 'INDIVIDUAL', index),
        `INDIVIDUAL without ${id ? 'a name' : 'a DATAID'}`,
      );
    const aliases = findAll(individual, 'INDIVIDUAL_ALIAS')
      .filter((alias) => text(alias, 'QUALITY').toLowerCase() !== 'low')
      .map((alias) => text(alias, 'ALIAS_NAME'));
    const original = text(individual, 'NAME_ORIGINAL_SCRIPT');
    return {
      id,
      names: [primary, ...aliases, original].filter(Boolean),
      dobs: unDates(individual),
      nationalities: countryCodes(findAll(findAll(individual, 'NATIONALITY'), 'VALUE').map((value) => text(value))),
    };
  });
}
