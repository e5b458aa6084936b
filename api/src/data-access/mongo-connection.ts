import mongoose, { Connection } from 'mongoose';

/**
 * One connection per process. FerretDB speaks the same wire protocol, so nothing here knows which
 * server is behind the URI; we only avoid what FerretDB lacks (multi-document transactions).
 */
export async function connectMongo(uri: string): Promise<Connection> {
  const connection = mongoose.createConnection(uri, {
    serverSelectionTimeoutMS: 5_000,
    // Indexes are declared on the schemas and built at start; a deployment may turn this off and
    // build them out of band.
    autoIndex: true,
  });
  await connection.asPromise();
  return connection;
}

export async function pingMongo(connection: Connection): Promise<void> {
  if (!connection.db) throw new Error('mongo connection has no database');
  await connection.db.admin().command({ ping: 1 });
}
