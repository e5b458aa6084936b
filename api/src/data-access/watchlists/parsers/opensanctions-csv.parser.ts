import { WatchlistEntry } from '../../../domain/sanctions/watchlist-entry';
import { countryCodes } from './country-code';
import { csvRows } from './csv-rows';
import { isoPartialDate } from './partial-date';
import { watchlistFileError } from './watchlist-file-error';

const REQUIRED = ['id', 'schema', 'name', 'aliases', 'birth_date', 'countries'];

const split = (value: string | undefined) =>
  (value ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);

/**
 * OpenSanctions `targets.simple.csv` (header row; `;`-joined multi-values). Only `Person` rows.
 * `countries` is every country linked to the person, used as the nationality qualifier.
 */
export function parseOpenSanctionsCsv(text: string): WatchlistEntry[] {
  const [header, ...rows] = csvRows(text, null);
  const columns = new Map((header?.fields ?? []).map((name, index) => [name, index]));
  const missing = REQUIRED.filter((name) => !columns.has(name));
  if (missing.length) throw watchlistFileError(1, `header lacks ${missing.join(', ')} (is this targets.simple.csv?)`);
  const field = (fields: string[], name: string) => fields[columns.get(name) as number];
  const entries: WatchlistEntry[] = [];
  for (const { line, fields } of rows) {
    if (fields.length !== columns.size)
      throw watchlistFileError(line, `${fields.length} fields, the header has ${columns.size}`);
    if (field(fields, 'schema') !== 'Person') continue;
    const id = field(fields, 'id');
    const name = field(fields, 'name');
    if (!id || !name) throw watchlistFileError(line, `Person without ${id ? 'a name' : 'an id'}`);
    entries.push({
      id,
      names: [name, ...split(field(fields, 'aliases'))],
      dobs: split(field(fields, 'birth_date'))
        .map(isoPartialDate)
        .filter((date): date is string => date !== null),
      nationalities: countryCodes(split(field(fields, 'countries'))),
    });
  }
  return entries;
}
