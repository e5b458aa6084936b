import { WatchlistEntry } from '../../../domain/sanctions/watchlist-entry';
import { countryCodes } from './country-code';
import { isoPartialDate } from './partial-date';
import { findAll, parseXml, text } from './xml-document';
import { lineOfNthTag, watchlistFileError } from './watchlist-file-error';

/** UK dates are dd/mm/yyyy with 00 for unknown parts ("00/00/1961"). */
function ukDate(value: string): string | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value.trim());
  if (!match) return isoPartialDate(value);
  return isoPartialDate(`${match[3]}-${match[2]}-${match[1]}`);
}

/**
 * The UK sanctions list XML (`Designations/Designation`): individuals only; Name1..Name5 are given
 * names and Name6 the surname; DOBs/DOB and Nationalities/Nationality as written by the list.
 */
export function parseUkSanctionsXml(xml: string): WatchlistEntry[] {
  const designations = findAll(parseXml(xml), 'Designation');
  if (designations.length === 0)
    throw watchlistFileError(1, 'no Designation elements (is this the UK sanctions list XML?)');
  const entries: WatchlistEntry[] = [];
  designations.forEach((designation, index) => {
    if (text(designation, 'IndividualEntityShip').toLowerCase() !== 'individual') return;
    const id = text(designation, 'UniqueID');
    const names = findAll(findAll(designation, 'Names'), 'Name').map((name) =>
      ['Name1', 'Name2', 'Name3', 'Name4', 'Name5', 'Name6']
        .map((part) => text(name, part))
        .filter(Boolean)
        .join(' '),
    );
    if (!id || !names.some(Boolean))
      throw watchlistFileError(
        lineOfNthTag(xml, 'Designation', index),
        `individual without ${id ? 'a name' : 'a UniqueID'}`,
      );
    entries.push({
      id,
      names: [...new Set(names.filter(Boolean))],
      dobs: findAll(findAll(designation, 'DOBs'), 'DOB')
        .map((dob) => ukDate(text(dob)))
        .filter((date): date is string => date !== null),
      nationalities: countryCodes(
        findAll(findAll(designation, 'Nationalities'), 'Nationality').map((nationality) => text(nationality)),
      ),
    });
  });
  return entries;
}
