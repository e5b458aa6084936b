import { WatchlistEntry } from '../../../domain/sanctions/watchlist-entry';
import { countryCodes } from './country-code';
import { isoPartialDate } from './partial-date';
import { findAll, parseXml, text } from './xml-document';
import { lineOfNthTag, watchlistFileError } from './watchlist-file-error';

/**
 * The EU financial sanctions file (`export/sanctionEntity`): persons are those whose
 * `subjectType` has code `person` (classificationCode `P`); names from `nameAlias@wholeName`,
 * dates from `birthdate@birthdate` (or `@year`), nationality from `citizenship@countryIso2Code`.
 */
export function parseEuFsfXml(xml: string): WatchlistEntry[] {
  const entities = findAll(parseXml(xml), 'sanctionEntity');
  if (entities.length === 0)
    throw watchlistFileError(1, 'no sanctionEntity elements (is this the EU financial sanctions XML?)');
  const entries: WatchlistEntry[] = [];
  entities.forEach((entity, index) => {
    const subject = findAll(entity, 'subjectType')[0];
    if (text(subject, 'code') !== 'person' && text(subject, 'classificationCode') !== 'P') return;
    const id = text(entity, 'logicalId') || text(entity, 'euReferenceNumber');
    const names = findAll(entity, 'nameAlias').map(
      (alias) =>
        text(alias, 'wholeName') ||
        [text(alias, 'firstName'), text(alias, 'middleName'), text(alias, 'lastName')].filter(Boolean).join(' '),
    );
    if (!id || !names.some(Boolean))
      throw watchlistFileError(
        lineOfNthTag(xml, 'sanctionEntity', index),
        `person without ${id ? 'a name' : 'a logicalId'}`,
      );
    entries.push({
      id,
      names: [...new Set(names.filter(Boolean))],
      dobs: findAll(entity, 'birthdate')
        .map((birth) => isoPartialDate(text(birth, 'birthdate')) ?? isoPartialDate(text(birth, 'year')))
        .filter((date): date is string => date !== null),
      nationalities: countryCodes(
        findAll(entity, 'citizenship')
          .map((citizenship) => text(citizenship, 'countryIso2Code'))
          .filter(Boolean),
      ),
    });
  });
  return entries;
}
