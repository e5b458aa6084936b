import { WatchlistEntry } from '../../../domain/sanctions/watchlist-entry';
import { countryCodes } from './country-code';
import { csvRows } from './csv-rows';
import { partialDates } from './partial-date';
import { watchlistFileError } from './watchlist-file-error';

const EMPTY = '-0-';

/** OFAC writes individuals "LAST, First Middle"; documents read given names first. */
export function ofacDisplayName(name: string): string {
  const comma = name.indexOf(',');
  if (comma < 0) return name.trim();
  return `${name.slice(comma + 1).trim()} ${name.slice(0, comma).trim()}`.trim();
}

function remarkValues(remarks: string, label: RegExp): string[] {
  return [...remarks.matchAll(label)].map((match) => match[1].trim());
}

/**
 * OFAC's legacy SDN CSV (no header: ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign,
 * Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks) with its alt.csv aliases. DOB and
 * nationality exist only as free text in Remarks ("DOB 28 Jul 1963; ... nationality Russia.").
 */
export function parseOfacSdnCsv(text: string, aliasesText?: string): WatchlistEntry[] {
  const entries = new Map<string, WatchlistEntry>();
  for (const { line, fields } of csvRows(text, 12)) {
    const [id, name, type, , , , , , , , , remarks] = fields;
    if (!/^\d+$/.test(id)) throw watchlistFileError(line, `ent_num "${id}" is not a number`);
    if (type !== 'individual') continue;
    if (!name || name === EMPTY) throw watchlistFileError(line, `entry ${id} has no name`);
    const text = remarks === EMPTY ? '' : remarks;
    entries.set(id, {
      id: id,
      names: [ofacDisplayName(name)],
      dobs: [...new Set(remarkValues(text, /\bDOB ([^;]+)/g).flatMap(partialDates))],
      nationalities: countryCodes(remarkValues(text, /\b(?:nationality|citizen) ([^;]+?)\.?(?:;|$)/gi)),
    });
  }
  if (entries.size === 0) throw watchlistFileError(null, 'no individuals found (is this the SDN CSV?)');
  if (aliasesText) {
    for (const { line, fields } of csvRows(aliasesText, 5)) {
      const [id, , , alias] = fields;
      if (!/^\d+$/.test(id)) throw watchlistFileError(line, `alias ent_num "${id}" is not a number (alt.csv)`);
      const entry = entries.get(id);
      if (entry && alias && alias !== EMPTY) entry.names.push(ofacDisplayName(alias));
    }
  }
  return [...entries.values()];
}
