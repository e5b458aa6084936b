import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Connection } from 'mongoose';
import { connectMongo } from '../../src/data-access/mongo-connection';
import { createSanctionsScreening } from '../../src/data-access/watchlist-screening';
import { createLogger } from '../../src/shared/logger';
import { isolatedTestEnv } from '../../../scripts/test-support/test-env';
import { anyOf, stringMatching } from '../../../scripts/test-support/typed-matchers';
import { failureOf } from '../support/command-failure';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const REAL = path.resolve(ROOT, 'api/test/sanctions/lists');
const FIXTURES = path.join(__dirname, 'fixtures');

/** What `watchlist import` and `watchlist status` print. */
interface ImportedList {
  list: string;
  format: string;
  version: string;
  entry_count: number;
  loaded_at: string;
}

describe('watchlist admin commands (npm run admin -- watchlist ...) on the real lists', () => {
  const env = isolatedTestEnv();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bv-watchlist-'));
  let store: Connection;
  const admin = (...args: string[]) =>
    run(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'api/src/entry-points/cli/admin.ts'), ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        MONGODB_URI: env.MONGODB_URI,
        SECRET_ENCRYPTION_KEY: env.SECRET_ENCRYPTION_KEY,
      },
    });
  const status = async () =>
    (JSON.parse((await admin('watchlist', 'status')).stdout) as { lists: ImportedList[] }).lists;

  beforeAll(async () => {
    store = await connectMongo(env.MONGODB_URI);
  });
  afterAll(async () => {
    await store.dropDatabase().catch(() => undefined);
    await store.close();
  });

  it('imports OFAC SDN (with alt.csv) and the UN list, and status shows each version, size and load time', async () => {
    const ofac = JSON.parse(
      (await admin('watchlist', 'import', '--format', 'ofac-sdn-csv', '--file', path.join(REAL, 'sdn.csv'))).stdout,
    ) as ImportedList;
    expect(ofac).toMatchObject({ list: 'ofac-sdn', format: 'ofac-sdn-csv', entry_count: 4620 });
    await admin('watchlist', 'import', '--format', 'un-xml', '--file', path.join(REAL, 'UN_consolidated.xml'));
    const lists = await status();
    expect(lists.map((l) => [l.list, l.entry_count])).toEqual([
      ['ofac-sdn', 4620],
      ['un-consolidated', 730],
    ]);
    expect(lists[0].version).toBe(ofac.version);
    expect(Date.parse(lists[0].loaded_at)).not.toBeNaN();
  });

  it('screens a file of queries, one JSON line out per line in, naming the entry only on a MATCH', async () => {
    const queries = path.join(tmp, 'queries.jsonl');
    writeFileSync(
      queries,
      [
        { name: 'AYMAN ZAWAHIRI', dob: '1951-06-19', nationality: 'EG' },
        { name: 'Willeke Liselotte De Bruijn', dob: '1965-03-10', nationality: 'NL' },
        { name: 'Ayman Al-Zawahiri', dob: '1985-01-01' }, // same name, DOB decades apart
      ]
        .map((q) => JSON.stringify(q))
        .join('\n'),
    );
    const lines = (await admin('watchlist', 'screen', '--file', queries)).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { result: string });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toEqual({
      result: 'MATCH',
      score: anyOf(Number),
      list: stringMatching(/^(ofac-sdn|un-consolidated)$/),
      entry_id: anyOf(String),
      matched_name: stringMatching(/Zaw/i),
    });
    expect(lines[1]).toEqual({ result: 'CLEAR', score: anyOf(Number) });
    expect(lines[2].result).toBe('CLEAR');
  });

  it('refuses a bad file with the line and the reason, and the list keeps serving the version it had', async () => {
    const before = await status();
    const bad = path.join(tmp, 'bad.ftm.json');
    writeFileSync(
      bad,
      '{"id":"p1","schema":"Person","properties":{"name":["Some One"]}}\n{"id":"p2","schema":"Person","properties":{}}\n',
    );
    const refused = await failureOf(
      admin('watchlist', 'import', '--format', 'ftm-jsonl', '--file', bad, '--list', 'ofac-sdn'),
    );
    expect(refused.code).toBe(65);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('line 2: Person without a name');
    expect(await status()).toEqual(before);
  });

  it('flips a list to a new version whole: old chunks go, and a screening process reloads it', async () => {
    const screening = createSanctionsScreening(store, createLogger('silent'), { refreshIntervalMs: 0 });
    const specimen = { name: 'Willeke Liselotte De Bruijn', dob: '1965-03-10', nationality: 'NL' };
    expect((await screening.screen(specimen)).verdict).toBe('CLEAR');
    const chunksBefore = await store.collection('watchlist_chunks').countDocuments();
    await admin(
      'watchlist',
      'import',
      '--format',
      'ftm-jsonl',
      '--file',
      path.join(FIXTURES, 'entities.ftm.json'),
      '--list',
      'un-consolidated',
    );
    expect(await store.collection('watchlist_chunks').countDocuments()).toBe(chunksBefore); // 1 UN chunk out, 1 FtM chunk in
    let outcome = await screening.screen(specimen);
    for (let i = 0; i < 50 && outcome.verdict !== 'MATCH'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100)); // the old index serves while the new one builds
      outcome = await screening.screen(specimen);
    }
    expect(outcome).toMatchObject({
      verdict: 'MATCH',
      best: {
        list: 'un-consolidated',
        entry_id: 'ftm-test-specimen',
        matched_name: 'Willeke Liselotte de Bruijn',
      },
    });
    expect(screening.loaded.entries).toBe(4620 + 2);
  });
});
