import { Connection, Schema } from 'mongoose';

/**
 * One document per list: the version that serves. Importing writes the new version's chunks
 * first and flips this pointer last, so readers see the old version or the complete new one.
 */
export interface WatchlistDocument {
  _id: string; // the list's name, e.g. ofac-sdn
  version: string;
  format: string;
  entry_count: number;
  chunk_count: number;
  loaded_at: Date;
  /** A version being written; if the import died, the next import removes its chunks. */
  pending: { version: string; chunk_count: number } | null;
}

/** A compact person: id, names (primary first), dobs, nationalities. */
export interface StoredEntry {
  i: string;
  n: string[];
  d: string[];
  c: string[];
}

/**
 * Entries are stored a thousand to a document, keyed `<list>@<version>#<seq>`, as one JSON string:
 * FerretDB (SQLite) converts structured documents slowly (a 1,000-entry chunk of objects took
 * ~260 ms to read here, the same as a string ~5 ms), is slow on many small writes, and refuses
 * nested arrays. A million persons are a thousand documents read in one `_id` range scan.
 */
export interface WatchlistChunkDocument {
  _id: string;
  /** JSON of StoredEntry[]. */
  entries: string;
}

const watchlistSchema = new Schema<WatchlistDocument>(
  {
    _id: { type: String, required: true },
    version: { type: String, required: true },
    format: { type: String, required: true },
    entry_count: { type: Number, required: true },
    chunk_count: { type: Number, required: true },
    loaded_at: { type: Date, required: true },
    pending: { type: Schema.Types.Mixed, default: null },
  },
  { versionKey: false },
);

const chunkSchema = new Schema<WatchlistChunkDocument>(
  { _id: { type: String, required: true }, entries: { type: String, required: true } },
  { versionKey: false },
);

export function watchlistModels(connection: Connection) {
  return {
    Watchlist: connection.model<WatchlistDocument>('Watchlist', watchlistSchema, 'watchlists'),
    WatchlistChunk: connection.model<WatchlistChunkDocument>('WatchlistChunk', chunkSchema, 'watchlist_chunks'),
  };
}
