import { mkdirSync } from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';
import { startProcess, waitFor, ManagedProcess } from './child-process';
import { freePort } from './free-port';

/** Built by scripts/build-ferretdb.sh, patched so that lookups by _id use the _id index. */
export const FERRETDB_BIN = path.resolve(__dirname, '../../.state/bin/ferretdb-v1.24.2-idpush');

export interface FerretDbOptions {
  /**
   * How long an SQLite writer waits for the write lock before FerretDB answers "database is
   * locked" (SQLITE_BUSY). Writes by _id hold the lock for well under a millisecond (see
   * scripts/build-ferretdb.sh), so 5 s is only reached by a stuck writer; FerretDB's own default
   * is 10 s, longer than a client waits for an answer.
   */
  busyTimeoutMs?: number;
  /**
   * SQLite's fsync policy. 'full' (SQLite's default, kept): every commit is fsynced. 'normal'
   * fsyncs the WAL at checkpoints only (a power loss may roll back the last commits, never
   * corrupts); bench:load measured no difference at 16 clients on this machine (106 vs 108 req/s,
   * load average ~10), so durability is not traded for it.
   */
  synchronous?: 'normal' | 'full';
  /**
   * SQLite's page cache per connection in MiB. 64 (SQLite's default is 2): at 100,000 sessions the
   * read by id through the API went from 10.1 ms p50 to 4.3 and 4.0 ms (bench:load without the
   * worker, 2026-11-25), FerretDB's RSS 330 MiB at 64 clients.
   */
  cacheMiB?: number;
  /** Another FerretDB build (benchmarks comparing one with the other); default FERRETDB_BIN. */
  bin?: string;
}

/**
 * FerretDB 1.24 over embedded SQLite: the MongoDB wire protocol without a mongod (none can be
 * installed here). WAL, so readers never wait for the writer; the busy timeout above. The debug
 * address and telemetry are off so instances never clash or call out.
 */
export async function startFerretDb(
  dataDir: string,
  port?: number,
  options: FerretDbOptions = {},
): Promise<{ uri: string; process: ManagedProcess }> {
  mkdirSync(dataDir, { recursive: true });
  const listenPort = port ?? (await freePort());
  const proc = startProcess(
    'ferretdb',
    options.bin ?? FERRETDB_BIN,
    [
      '--handler=sqlite',
      // The busy handler must come before WAL is switched on (FerretDB's own order).
      // journal_size_limit: the WAL file is cut back to 64 MiB after a checkpoint that resets it;
      // without it, it stays at its high-water mark. Under reads that never pause (bench:load's
      // fill beside the worker's sweeps) no checkpoint resets it: 1.6-2.1 GB after 100,000 fills.
      `--sqlite-url=file:${dataDir}/?${[`busy_timeout(${options.busyTimeoutMs ?? 5_000})`, 'journal_mode(wal)', `synchronous(${options.synchronous ?? 'full'})`, `journal_size_limit(${64 * 1024 * 1024})`, `cache_size(-${(options.cacheMiB ?? 64) * 1024})`].map((p) => `_pragma=${p}`).join('&')}`,
      `--listen-addr=127.0.0.1:${listenPort}`,
      `--state-dir=${dataDir}`,
      '--debug-addr=-',
      '--telemetry=disable',
      '--log-level=warn',
    ],
    {
      logFile: path.join(dataDir, 'ferretdb.log'),
      // Go's collector at 4x the live heap instead of 2x (GOGC=100): FerretDB turns every binary
      // blob into JSON and back, garbage its collector would otherwise chase several times a
      // verification. bench:decision 24 x 2, interleaved twice: FerretDB CPU per verification
      // 104 -> 90.5 ms (median of 4 passes); an operator's own GOGC wins.
      env: { ...process.env, GOGC: process.env.GOGC ?? '400' },
    },
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
