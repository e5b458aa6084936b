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
import {
  connectMongo,
  PERSONAL_SESSION_FIELDS,
  PiiVault,
  SessionDocument,
  SessionRepository,
} from '../../api/src/public-entry';
import { serializeResult } from '../../api/src/domain/results/result-resource';
import { parseMasterKeys } from '../../api/src/shared/master-keys';
import { newSessionId } from '../../api/src/shared/random-id';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CRYPTO_OPS = Number(process.env.BENCH_CRYPTO_OPS ?? 2000);
const STORE_SESSIONS = Number(process.env.BENCH_STORE_SESSIONS ?? 40);
const OUT = path.resolve(__dirname, '../results');

/** The baseline: the same repository code with sealing and opening as identity. */
class PassThroughVault extends PiiVault {
  override async seal(_where: string, plaintext: string): Promise<string> {
    return plaintext;
  }
  override async open(_where: string, stored: string): Promise<string> {
    return stored;
  }
}

/** Same stored size as sealed values (base64 plus the same overhead), no cryptography: separates size from crypto. */
class SizeMatchedVault extends PiiVault {
  override async seal(_where: string, plaintext: string): Promise<string> {
    return `sv0:dk-0000-00-00:${'0'.repeat(37)}${Buffer.from(plaintext, 'utf8').toString('base64')}`;
  }
  override async open(_where: string, stored: string): Promise<string> {
    return stored.startsWith('sv0:') ? Buffer.from(stored.slice(55), 'base64').toString('utf8') : stored;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function newSession(id: string): SessionDocument {
  const now = new Date();
  return {
    _id: id,
    account_id: 'acct_bench',
    environment: 'production',
    status: 'PENDING',
    failure_reason: null,
    return_url: 'https://example.com/r',
    webhook_url: 'https://example.com/w',
    expected_name: 'Tomas Oestergaard',
    expected_dob: '1958-12-21',
    expected_address: '12 Rue des Secrets, 75001 Paris',
    locale: 'en',
    metadata_json: '{"order":"o-17","customer":"c-123456"}',
    created_at: now,
    updated_at: now,
    expires_at: now,
    started_at: null,
    decided_at: null,
    confidence: null,
    verified_until: null,
    credential_token: null,
    result_body: null,
    webhook_state: 'none',
    webhook_delivery_id: null,
    billed: true,
  };
}

/** A decision as the worker writes it: the result resource and a report of realistic size. */
function decisionUpdate(id: string) {
  const result = serializeResult(
    {
      session_id: id,
      status: 'VERIFIED',
      environment: 'production',
      person: {
        name: 'Tomas Oestergaard',
        dob: '1958-12-21',
        document_type: 'passport',
        document_country: 'MA',
        document_jurisdiction: null,
        address: null,
      },
      checks: { document: 'PASS', liveness: 'PASS', antispoof: 'PASS', face_match: 'PASS' },
      confidence: 0.8731,
      verified_until: new Date(),
      failure_reason: null,
      credential_token: 'cred_0123456789abcdefghijABCDEFGHIJ',
      attempt: 1,
    },
    '{"order":"o-17","customer":"c-123456"}',
  );
  const check = (name: string) => ({
    verdict: 'PASS',
    reason: null,
    scores: [{ name: `${name}_score`, value: 0.91234, threshold: 0.5, comparison: 'gte' }],
    model: { name, version: '1', sha256: 'a'.repeat(64) },
    duration_ms: 123,
  });
  const report = JSON.stringify({
    session_id: id,
    decided_at: new Date().toISOString(),
    checks: Object.fromEntries(['document', 'liveness', 'antispoof', 'face_match'].map((n) => [n, check(n)])),
    document: { format: 'TD3', type: 'passport', country: 'MA', corrections: [] },
  });
  const now = new Date();
  return {
    status: 'VERIFIED' as const,
    failure_reason: null,
    confidence: 0.8731,
    result_body: result,
    report_json: report,
    decided_at: now,
    updated_at: now,
    webhook_state: 'pending' as const,
  };
}

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
    const md = [
      '# Personal data encryption at rest: cost on the decision path',
      '',
      `${result.at}, ${result.machine.cpus} CPUs (${result.machine.model}), load average ${result.machine.loadavg.map((l) => l.toFixed(2)).join(' / ')}. ${result.method}.`,
      '',
      '| operation | median |',
      '|---|---|',
      `| seal the personal fields of a new session (name, DOB, address, metadata) | ${summary.crypto_median_us.seal_creation_us} µs |`,
      `| seal a decision write (result ${sizes.result_body_bytes} B + report ${sizes.report_bytes} B) | ${summary.crypto_median_us.seal_decision_us} µs |`,
      `| open a decided session (all six personal fields) | ${summary.crypto_median_us.open_decided_us} µs |`,
      '',
      '| on FerretDB, per session | encrypted | pass-through (plaintext) | size-matched plaintext |',
      '|---|---|---|---|',
      ...(['insert_ms', 'decide_ms', 'read_ms'] as const).map(
        (k) =>
          `| ${k.replace('_ms', '')} | ${summary.store_median_ms[k]?.encrypted} ms | ${summary.store_median_ms[k]?.baseline} ms | ${summary.store_median_ms[k]?.size_matched} ms |`,
      ),
      '',
      `Sealed sizes: result ${sizes.result_body_bytes} → ${sizes.result_body_sealed_bytes} B, report ${sizes.report_bytes} → ${sizes.report_sealed_bytes} B (base64 plus IV, tag and data key id).`,
      '',
    ].join('\n');
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
