/**
 * One query shape the API or the worker sends: the collection, filter and sort, the index that
 * serves it on MongoDB, and what the embedded FerretDB (SQLite) does with it: answer it from the
 * _id index, or read the collection whole and filter it.
 */
export interface QueryShape {
  what: string;
  collection: string;
  filter: Record<string, unknown>;
  sort?: Record<string, 1 | -1>;
  mongoIndex: string;
  ferretdb: 'id-index' | 'scan';
}
