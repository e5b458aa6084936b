import { CsvError, parse } from 'csv-parse/sync';
import { watchlistFileError } from './watchlist-file-error';

export interface CsvRow {
  line: number;
  fields: string[];
}

// DOS end-of-file (Ctrl-Z, 0x1a) that some list exports still end with.
const trailingEndOfFile = new RegExp(`${String.fromCharCode(0x1a)}\\s*$`);

/**
 * Every record of a CSV text with the line it starts on. A malformed file (unclosed quote, wrong
 * field count) is refused with the line csv-parse stopped at.
 */
export function csvRows(text: string, expectedColumns: number | null): CsvRow[] {
  try {
    const records = parse(text.replace(trailingEndOfFile, ''), {
      info: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true, // counted below, so the message names the line and the count
      bom: true,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
    return records.map(({ record, info }) => {
      if (expectedColumns !== null && record.length !== expectedColumns)
        throw watchlistFileError(info.lines, `${record.length} fields, expected ${expectedColumns}`);
      return { line: info.lines, fields: record };
    });
  } catch (error) {
    if (error instanceof CsvError)
      throw watchlistFileError((error as CsvError & { lines?: number }).lines ?? null, error.message);
    throw error;
  }
}
