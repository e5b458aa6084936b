import { mkdirSync } from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';
import { startProcess, waitFor, ManagedProcess } from './child-process';
import { freePort } from './free-port';

/** Built by scripts/build-ferretdb.sh, patched so that lookups by _id use the _id index. */
export const FERRETDB_BIN = path.resolve(__dirname, '../../.state/bin/ferretdb-v1.24.2-idpk');

/**
 * FerretDB 1.24 over embedded SQLite: the MongoDB wire protocol without a mongod (none can be
 * installed here). The debug address and telemetry are off so instances never clash or call out.
 */
export async function startFerretDb(dataDir: string, port?: number): Promise<{ uri: string; process: ManagedProcess }> {
  mkdirSync(dataDir, { recursive: true });
  const listenPort = port ?? (await freePort());
  const proc = startProcess(
    'ferretdb',
    FERRETDB_BIN,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${dataDir}/`,
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
