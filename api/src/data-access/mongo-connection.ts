import mongoose, { Connection } from 'mongoose';

/**
 * One connection per process. FerretDB speaks the same wire protocol, so nothing here knows which
 * server is behind the URI; we only avoid what FerretDB lacks (multi-document transactions).
 */
export async function connectMongo(uri: string): Promise<Connection> {
  const connection = mongoose.createConnection(uri, {
    serverSelectionTimeoutMS: 5_000,
    // The driver's own single retry of a read or write that met a network error or a primary
    // stepping down (the defaults, stated so they are not lost); the repositories add a bounded
    // retry of their own for a busy store (store-retry.ts).
    retryReads: true,
    retryWrites: true,
    // A store that stops answering (paused, partitioned) fails the operation instead of holding
    // the request forever; the error middleware answers it 503. Long, because a few worker reads
    // still take whole collections on FerretDB (the one-time in-flight backfill, the retention
    // sweep): such a read took 42 s at 100,000 sessions on a busy machine, and 30 s failed it.
    socketTimeoutMS: 120_000,
    // Indexes are declared on the schemas and built at start; a deployment may turn this off and
    // build them out of band.
    autoIndex: true,
    // Each command's time for /metrics (store-telemetry.ts); the driver emits an event per
    // command, which costs microseconds against the millisecond round trips it times.
    monitorCommands: true,
  });
  await connection.asPromise();
  return connection;
}

export async function pingMongo(connection: Connection): Promise<void> {
  if (!connection.db) throw new Error('mongo connection has no database');
  await connection.db.admin().command({ ping: 1 });
}
