import { mkdirSync } from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';
import { startProcess, waitFor, ManagedProcess } from './child-process';
import { freePort } from './free-port';

/** Built by scripts/build-ferretdb.sh, patched so that lookups by _id use the _id index. */
export const FERRETDB_BIN = path.resolve(__dirname, '../../.state/bin/ferretdb-v1.24.2-idpk');

export interface FerretDbOptions {
  /**
   * How long an SQLite writer waits for the write lock before FerretDB answers "database is
   * locked" (SQLITE_BUSY). Writes by _id hold the lock for well under a millisecond (see
   * scripts/build-ferretdb.sh), so 5 s is only reached by a stuck writer; FerretDB's own default
   * is 10 s, longer than a client waits for an answer.
   */
  busyTimeoutMs?: number;
}

/**
 * FerretDB 1.24 over embedded SQLite: the MongoDB wire protocol without a mongod (none can be
 * installed here). WAL, so readers never wait for the writer; the busy timeout above. The debug
 * address and telemetry are off so instances never clash or call out.
 */
export async function startFerretDb(dataDir: string, port?: number, options: FerretDbOptions = {}): Promise<{ uri: string; process: ManagedProcess }> {
  mkdirSync(dataDir, { recursive: true });
  const listenPort = port ?? (await freePort());
  const proc = startProcess(
    'ferretdb',
    FERRETDB_BIN,
    [
      '--handler=sqlite',
      // The busy handler must come before WAL is switched on (FerretDB's own order).
      `--sqlite-url=file:${dataDir}/?_pragma=busy_timeout(${options.busyTimeoutMs ?? 5_000})&_pragma=journal_mode(wal)`,
      `--listen-addr=127.0.0.1:${listenPort}`,
      `--state-dir=${dataDir}`,
      '--debug-addr=-',
      '--telemetry=disable',
      '--log-level=warn',
    ],
    { logFile: path.join(dataDir, 'ferretdb.log') },
  );
  const uri = `mongodb://127.0.0.1:${listenPort}/`;
  await waitFor('ferretdb', () => ping(uri), 30_000, proc.child);
  return { uri, process: proc };
}

async function ping(uri: string): Promise<boolean> {
  const client = new mongoose.mongo.MongoClient(uri, { serverSelectionTimeoutMS: 500 });
  try {
    await client.db('admin').command({ ping: 1 });
    return true;
  } finally {
    await client.close();
  }
}
