/**
 * The cost of encrypting personal data at rest on the decision path, which every decision pays:
 *  - crypto alone, in-process: sealing a session's personal fields at creation, sealing the
 *    decision write (result + report), opening a decided session on a read (every personal field);
 *  - the same three store operations on FerretDB through SessionRepository, with the real vault
 *    with a pass-through vault (the baseline) and with a vault that stores values of the sealed
 *    size without encrypting them (separating the cost of bigger documents from the crypto).
 * Median of BENCH_ROUNDS rounds (default 7); writes benchmarks/results/pii-crypto.{json,md}.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFerretDb } from '../../scripts/stack/ferretdb';
import { connectMongo, PERSONAL_SESSION_FIELDS, PiiVault, SessionRepository } from '../../api/src/public-entry';
import { parseMasterKeys } from '../../api/src/shared/master-keys';
import { newSessionId } from '../../api/src/shared/random-id';
import { renderMarkdown } from './pii-crypto-report';
import { decisionUpdate, newSession } from './session-fixtures';
import { PassThroughVault, SizeMatchedVault } from './vault-variants';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CRYPTO_OPS = Number(process.env.BENCH_CRYPTO_OPS ?? 2000);
const STORE_SESSIONS = Number(process.env.BENCH_STORE_SESSIONS ?? 40);
const OUT = path.resolve(__dirname, '../results');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function timeIt(fn: () => Promise<unknown>, n: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i += 1) await fn();
  return Number(process.hrtime.bigint() - start) / 1e3 / n; // µs per op
}

async function main(): Promise<void> {
  const dir = path.join(os.tmpdir(), `bench-pii-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const ferret = await startFerretDb(path.join(dir, 'ferretdb'));
  const connection = await connectMongo(`${ferret.uri}bench_pii`);
  try {
    const ring = parseMasterKeys(`bench:${randomBytes(32).toString('base64')}`);
    const vault = new PiiVault(connection, ring);
    const plain = new PassThroughVault(connection, ring);
    const encrypted = new SessionRepository(connection, vault);
    const baseline = new SessionRepository(connection, plain);
    const sizeMatched = new SessionRepository(connection, new SizeMatchedVault(connection, ring));
    await encrypted.init();

    // Crypto alone (the day's data key cached after the first call, as in a running process).
    const sampleId = newSessionId();
    const created = newSession(sampleId);
    const update = decisionUpdate(sampleId);
    const sealedDecided = await vault.sealFields(sampleId, { ...created, ...update }, PERSONAL_SESSION_FIELDS);
    const crypto = {
      seal_creation_us: [] as number[],
      seal_decision_us: [] as number[],
      open_decided_us: [] as number[],
    };
    for (let r = 0; r < ROUNDS; r += 1) {
      crypto.seal_creation_us.push(
        await timeIt(() => vault.sealFields(sampleId, created, PERSONAL_SESSION_FIELDS), CRYPTO_OPS),
      );
      crypto.seal_decision_us.push(
        await timeIt(() => vault.sealFields(sampleId, update, PERSONAL_SESSION_FIELDS), CRYPTO_OPS),
      );
      crypto.open_decided_us.push(
        await timeIt(() => vault.openFields(sampleId, sealedDecided, PERSONAL_SESSION_FIELDS), CRYPTO_OPS),
      );
    }

    // On the store: insert at creation, the decision's claimed transition, a read of the decided session.
    const fresh = () => ({ insert_ms: [] as number[], decide_ms: [] as number[], read_ms: [] as number[] });
    const store = { encrypted: fresh(), baseline: fresh(), size_matched: fresh() };
    type Variant = keyof typeof store;
    const variants: Array<[Variant, SessionRepository]> = [
      ['encrypted', encrypted],
      ['baseline', baseline],
      ['size_matched', sizeMatched],
    ];
    for (let r = 0; r < ROUNDS; r += 1) {
      // Rotated each round, so no variant always runs first (or last) on a store that grows.
      for (const [name, repo] of variants.map((_, i) => variants[(i + r) % variants.length])) {
        const ids = Array.from({ length: STORE_SESSIONS }, () => newSessionId());
        let i = 0;
        store[name].insert_ms.push((await timeIt(() => repo.insert(newSession(ids[i++])), STORE_SESSIONS)) / 1000);
        i = 0;
        store[name].decide_ms.push(
          (await timeIt(() => {
            const id = ids[i++];
            return repo.transitionBySystem(id, ['PENDING'], decisionUpdate(id));
          }, STORE_SESSIONS)) / 1000,
        );
        i = 0;
        store[name].read_ms.push(
          (await timeIt(() => repo.findInScope(ids[i++], { account_id: 'acct_bench' }), STORE_SESSIONS)) / 1000,
        );
      }
    }

    const sizes = {
      result_body_bytes: update.result_body.length,
      result_body_sealed_bytes: sealedDecided.result_body.length,
      report_bytes: update.report_json.length,
      report_sealed_bytes: sealedDecided.report_json.length,
    };
    const summary = {
      crypto_median_us: Object.fromEntries(Object.entries(crypto).map(([k, v]) => [k, Number(median(v).toFixed(2))])),
      store_median_ms: Object.fromEntries(
        (['insert_ms', 'decide_ms', 'read_ms'] as const).map((k) => [
          k,
          {
            encrypted: Number(median(store.encrypted[k]).toFixed(3)),
            baseline: Number(median(store.baseline[k]).toFixed(3)),
            size_matched: Number(median(store.size_matched[k]).toFixed(3)),
          },
        ]),
      ),
      sizes,
    };
    const result = {
      benchmark: 'pii-crypto',
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadavg: os.loadavg() },
      method: `median of ${ROUNDS} rounds; crypto: ${CRYPTO_OPS} ops per round; store: ${STORE_SESSIONS} sessions per round per variant on FerretDB (SQLite), encrypted, pass-through and size-matched (same stored size, no crypto) variants in rotating order`,
      summary,
      rounds: { crypto, store },
    };
    mkdirSync(OUT, { recursive: true });
    writeFileSync(path.join(OUT, 'pii-crypto.json'), `${JSON.stringify(result, null, 2)}\n`);
    const md = renderMarkdown(result);
    writeFileSync(path.join(OUT, 'pii-crypto.md'), md);
    process.stdout.write(`${md}\n`);
  } finally {
    await connection.dropDatabase().catch(() => undefined);
    await connection.close();
    await ferret.process.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
