/**
 * One query shape the API or the worker sends: the collection, filter and sort, the index that
 * serves it on MongoDB, and what the embedded FerretDB (SQLite) does with it: answer it from the
 * _id index ('id-index': the filter is {_id} alone), narrow it to one document by the _id index
 * and filter that ('id-index-then-filter': an _id beside other conditions, or an _id $in list), or
 * read the collection whole and filter it ('scan').
 */
export interface QueryShape {
  what: string;
  collection: string;
  filter: Record<string, unknown>;
  sort?: Record<string, 1 | -1>;
  mongoIndex: string;
  ferretdb: 'id-index' | 'id-index-then-filter' | 'scan';
}
