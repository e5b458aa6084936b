import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Connection } from 'mongoose';
import { isolatedTestEnv } from '../../../scripts/test-support/test-env';
import { dataKeyModel } from '../../src/data-access/data-key.model';
import { connectMongo } from '../../src/data-access/mongo-connection';
import { PiiVault } from '../../src/data-access/pii-vault';
import { sessionModel } from '../../src/data-access/session.model';
import { SessionRepository } from '../../src/data-access/session.repository';
import { parseMasterKeys } from '../../src/shared/master-keys';

const ROOT = path.resolve(__dirname, '../../..');
const run = promisify(execFile);
const key = () => randomBytes(32).toString('base64');

describe('PII master key rotation (npm run admin -- keys rotate) on the real store', () => {
  const env = isolatedTestEnv();
  let connection: Connection;
  beforeAll(async () => {
    connection = await connectMongo(env.MONGODB_URI);
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('re-seals the data keys under the new master key, after which the old one is no longer needed to read what was stored', async () => {
    const [oldKey, newKey] = [`old:${key()}`, `new:${key()}`];
    const before = new PiiVault(connection, parseMasterKeys(oldKey));
    await before.init();
    const stored = await before.seal('ses_x|expected_name', 'Tomas Oestergaard');
    expect(stored).toMatch(/^sv1:dk-\d{4}-\d{2}-\d{2}:/);
    expect(stored).not.toContain('Tomas');

    const cli = await run(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'api/src/entry-points/cli/admin.ts'), 'keys', 'rotate'],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          MONGODB_URI: env.MONGODB_URI,
          SECRET_ENCRYPTION_KEY: env.SECRET_ENCRYPTION_KEY,
          PII_MASTER_KEYS: `${newKey},${oldKey}`,
        },
      },
    );
    expect(JSON.parse(cli.stdout)).toEqual({
      active_master_key_id: 'new',
      data_keys: 1,
      resealed: 1,
      unopenable: [],
    });
    expect((await dataKeyModel(connection).find().lean()).map((d) => d.master_key_id)).toEqual(['new']);

    expect(await new PiiVault(connection, parseMasterKeys(newKey)).open('ses_x|expected_name', stored)).toBe(
      'Tomas Oestergaard',
    );
    await expect(new PiiVault(connection, parseMasterKeys(oldKey)).open('ses_x|expected_name', stored)).rejects.toThrow(
      /master key new/,
    );
  }, 60_000);

  it('refuses a sealed value moved onto another record or field', async () => {
    // Another day's data key, so this vault's master key is the one that seals it.
    const vault = new PiiVault(connection, parseMasterKeys(`k:${key()}`), () => new Date('2001-01-01T00:00:00Z'));
    await vault.init();
    const sealed = await vault.seal('ses_a|expected_name', 'Jeanne Dupont');
    await expect(vault.open('ses_b|expected_name', sealed)).rejects.toThrow();
    await expect(vault.open('ses_a|expected_dob', sealed)).rejects.toThrow();
  });

  it('seals the personal fields of a session stored before encryption at rest (keys seal-existing), which then still reads the same', async () => {
    const vault = new PiiVault(connection, parseMasterKeys(`k:${key()}`), () => new Date('2002-02-02T00:00:00Z'));
    const sessions = new SessionRepository(connection, vault);
    await sessions.init();
    const now = new Date();
    await sessionModel(connection).collection.insertOne({
      _id: 'ses_legacy00000000000000000' as never,
      account_id: 'acct_a',
      environment: 'sandbox',
      status: 'FAILED',
      failure_reason: 'NAME_MISMATCH',
      return_url: 'https://e.com',
      webhook_url: 'https://e.com/w',
      expected_name: 'Legacy Person',
      expected_dob: null,
      expected_address: null,
      locale: 'en',
      metadata_json: '{"a":1}',
      created_at: now,
      updated_at: now,
      expires_at: now,
      result_body: '{"person":{"name":"Legacy Person"}}',
      webhook_state: 'none',
      billed: false,
    });
    expect(await sessions.sealLegacy()).toBe(3);
    expect(await sessions.sealLegacy()).toBe(0);
    const raw = await sessionModel(connection).collection.findOne({
      _id: 'ses_legacy00000000000000000' as never,
    });
    expect(JSON.stringify(raw)).not.toContain('Legacy Person');
    expect(await sessions.findForApplicant('ses_legacy00000000000000000')).toMatchObject({
      expected_name: 'Legacy Person',
      metadata_json: '{"a":1}',
      result_body: '{"person":{"name":"Legacy Person"}}',
    });
  });
});
