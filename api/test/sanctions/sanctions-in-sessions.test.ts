import path from 'node:path';
import { Connection } from 'mongoose';
import { connectMongo } from '../../src/data-access/mongo-connection';
import { WatchlistRepository } from '../../src/data-access/watchlist.repository';
import { WATCHLIST_FORMATS } from '../../src/data-access/watchlists/parsers/watchlist-formats';
import type { CreatedSession, SessionResult } from '../support/api-bodies';
import { call, validSession } from '../support/http';
import { IssuedAccount, startTestApi, TestApi } from '../support/test-api';

const FIXTURES = path.join(__dirname, 'fixtures');

describe('sanctions screening in sessions (simulate screens the sandbox specimen for real)', () => {
  let api: TestApi;
  let screened: IssuedAccount;
  let store: Connection;
  const simulateVerified = async () => {
    const created = await call<CreatedSession>(api.baseUrl, 'POST', '/v1/sessions', {
      key: screened.sandbox_api_key,
      body: validSession(),
    });
    return (
      await call<SessionResult>(api.baseUrl, 'POST', `/v1/sessions/${created.json.session_id}/simulate`, {
        key: screened.sandbox_api_key,
        body: { outcome: 'VERIFIED' },
      })
    ).json;
  };
  const importList = async (format: string, file: string, list: string) =>
    new WatchlistRepository(store).replaceList(
      list,
      format,
      await WATCHLIST_FORMATS[format].read(path.join(FIXTURES, file)),
      new Date(),
    );

  beforeAll(async () => {
    api = await startTestApi({ WATCHLIST_REFRESH_SECONDS: '0' });
    screened = await api.createAccount({ watchlist: true });
    store = await connectMongo(api.config.MONGODB_URI);
  });
  afterAll(async () => {
    await store.close();
    await api.stop();
  });

  it('answers SKIPPED, never CLEAR, while no list is loaded', async () => {
    const result = await simulateVerified();
    expect(result).toMatchObject({ status: 'VERIFIED', checks: { sanctions: 'SKIPPED' } });
  });

  it('answers CLEAR once a list is loaded that does not name the specimen', async () => {
    await importList('opensanctions-csv', 'targets.simple.csv', 'opensanctions');
    const result = await simulateVerified();
    expect(result).toMatchObject({
      status: 'VERIFIED',
      failure_reason: null,
      checks: { sanctions: 'CLEAR' },
    });
  });

  it('fails the session with SANCTIONS_MATCH when a newly loaded list names the specimen', async () => {
    await importList('ftm-jsonl', 'entities.ftm.json', 'specimen-list');
    let result = await simulateVerified();
    // The previous lists answer until this process has built the index with the new one.
    for (let i = 0; i < 30 && result.checks.sanctions !== 'MATCH'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      result = await simulateVerified();
    }
    expect(result).toMatchObject({
      status: 'FAILED',
      failure_reason: 'SANCTIONS_MATCH',
      checks: { sanctions: 'MATCH', document: 'PASS' },
      credential_token: null,
    });
  });

  it('keeps the listed person out of the logs', () => {
    expect(api.logLines.join('')).not.toMatch(/Bruijn|Willeke/i);
  });
});
