import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Connection } from 'mongoose';
import { isolatedTestEnv } from '../../../scripts/test-support/test-env';
import { accountModels } from '../../src/data-access/account.model';
import { CaptureBlobRepository } from '../../src/data-access/capture-blob.repository';
import { captureStateModel } from '../../src/data-access/capture-state.model';
import { connectMongo } from '../../src/data-access/mongo-connection';
import { openVault } from '../../src/data-access/open-vault';
import { sessionAttemptModel } from '../../src/data-access/session-attempt.model';
import { sessionModel } from '../../src/data-access/session.model';
import { SessionRepository } from '../../src/data-access/session.repository';
import { transitionClaimModel } from '../../src/data-access/transition-claim.model';
import { documentReadWhere, webhookSecretWhere } from '../../src/shared/sealer';
import { rawBlob } from './support/legacy-sealed-writers';
import { ACCOUNT, OLD_DAY_KEY, SESSION, writeLegacyRecords } from './support/legacy-sealed-records';

const ROOT = path.resolve(__dirname, '../../..');
const run = promisify(execFile);
const CURRENT_ENVELOPE = /^sv1:dk-\d{4}-\d{2}-\d{2}:/;

describe('one sealed-data format: what old formats wrote still opens, and `keys reseal` rewrites every kind into the envelope', () => {
  const env = isolatedTestEnv();
  const oldMaster = randomBytes(32);
  const newMasterKeys = `new:${randomBytes(32).toString('base64')}`;
  const bothMasterKeys = `${newMasterKeys},old:${oldMaster.toString('base64')}`;
  const image = randomBytes(4096);
  const read = JSON.stringify({ verdict: 'PASS', person: { name: 'Ines Legacy' }, portrait: null });
  let connection: Connection;
  let blobId: string;

  beforeAll(async () => {
    connection = await connectMongo(env.MONGODB_URI);
    blobId = await writeLegacyRecords(connection, env, { oldMaster, bothMasterKeys, image, read });
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  /** What a process reads back, with the vault it is given. */
  async function readEverything(keys: Parameters<typeof openVault>[1]) {
    const vault = openVault(connection, keys);
    const session = await new SessionRepository(connection, vault).findForApplicant(SESSION);
    const state = await captureStateModel(connection).findById(`${SESSION}:1`).lean();
    return {
      name: session?.expected_name,
      metadata: session?.metadata_json,
      result: session?.result_body,
      claim: await vault.open(
        `${SESSION}|result_body`,
        ((await transitionClaimModel(connection).findById(`${SESSION}:PROCESSING`).lean())?.update
          .result_body as string) ?? '',
      ),
      attempt: await vault.open(
        `${SESSION}|result_body`,
        ((await sessionAttemptModel(connection).findById(`${SESSION}:1`).lean())?.result_body as string) ?? '',
      ),
      secret: await vault.open(
        webhookSecretWhere(ACCOUNT),
        ((await accountModels(connection).Account.findById(ACCOUNT).lean())?.webhook_secret_sealed as string) ?? '',
      ),
      read: await vault.open(documentReadWhere(SESSION), state!.front!.read_sealed),
      image: await new CaptureBlobRepository(connection, vault).get(SESSION, blobId),
    };
  }

  const expected = () => ({
    name: 'Ines Legacy',
    metadata: '{"order":"plain before encryption at rest"}',
    result: '{"status":"VERIFIED"}',
    claim: '{"status":"VERIFIED"}',
    attempt: '{"status":"FAILED"}',
    secret: 'whsec_legacy',
    read,
    image,
  });

  it('opens every old format (pii1 fields, v1 webhook secrets and document reads, BVC1 images) with the legacy keys', async () => {
    expect(await readEverything({ ...env, PII_MASTER_KEYS: bothMasterKeys })).toEqual(expected());
  });

  it('re-seals every kind under the new master key into sv1 envelopes, which then open with no old key at all, and a second run finds nothing left', async () => {
    const reseal = () =>
      run(
        process.execPath,
        ['--import', 'tsx', path.join(ROOT, 'api/src/entry-points/cli/admin.ts'), 'keys', 'reseal'],
        {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH ?? '',
            MONGODB_URI: env.MONGODB_URI,
            SECRET_ENCRYPTION_KEY: env.SECRET_ENCRYPTION_KEY,
            CAPTURE_ENCRYPTION_KEY: env.CAPTURE_ENCRYPTION_KEY,
            PII_MASTER_KEYS: bothMasterKeys,
          },
        },
      );
    const first = JSON.parse((await reseal()).stdout) as unknown;
    expect(first).toEqual({
      data_keys: { active_master_key_id: 'new', data_keys: 1, resealed: 1, unopenable: [] },
      resealed: {
        session_fields: 3,
        attempt_results: 1,
        claim_fields: 1,
        webhook_secrets: 1,
        document_reads: 1,
        capture_blobs: 1,
      },
    });

    const session = await sessionModel(connection).collection.findOne({ _id: SESSION as never });
    const account = await accountModels(connection).Account.collection.findOne({ _id: ACCOUNT as never });
    const state = await captureStateModel(connection).collection.findOne<{ front: { read_sealed: string } }>({
      _id: `${SESSION}:1` as never,
    });
    const attempt = await sessionAttemptModel(connection).collection.findOne({
      _id: `${SESSION}:1` as never,
    });
    const claim = await transitionClaimModel(connection).collection.findOne<{ update: { result_body: string } }>({
      _id: `${SESSION}:PROCESSING` as never,
    });
    const fields = [
      session?.expected_name,
      session?.metadata_json,
      session?.result_body,
      attempt?.result_body,
      claim?.update.result_body,
      account?.webhook_secret_sealed,
      state?.front.read_sealed,
    ];
    for (const stored of fields) {
      expect(stored).toMatch(CURRENT_ENVELOPE);
      expect(stored).not.toMatch(/dk-2001-01-01/);
    }
    const blob = await rawBlob(connection, blobId);
    expect(blob.subarray(0, 30).toString('latin1')).toMatch(CURRENT_ENVELOPE);
    expect(blob.length - image.length).toBeLessThan(64);
    expect(JSON.stringify([session, account, state])).not.toMatch(/Ines Legacy|whsec_legacy|plain before/);

    expect(await readEverything({ PII_MASTER_KEYS: newMasterKeys })).toEqual(expected());
    expect((JSON.parse((await reseal()).stdout) as { resealed: unknown }).resealed).toEqual({
      session_fields: 0,
      attempt_results: 0,
      claim_fields: 0,
      webhook_secrets: 0,
      document_reads: 0,
      capture_blobs: 0,
    });
  }, 90_000);

  it('refuses an envelope moved to another place: the header and where it is stored are both bound in', async () => {
    const vault = openVault(connection, { PII_MASTER_KEYS: newMasterKeys });
    const sealed = await vault.seal(`${SESSION}|expected_name`, 'Ines Legacy');
    await expect(vault.open(`${SESSION}|expected_dob`, sealed)).rejects.toThrow();
    const relabelled = sealed.replace(/^sv1:dk-[^:]+:/, `sv1:${OLD_DAY_KEY}:`);
    await expect(vault.open(`${SESSION}|expected_name`, relabelled)).rejects.toThrow();
    const bytes = await vault.sealBytes(SESSION, image);
    await expect(vault.openBytes('ses_someoneelse000000000000', bytes)).rejects.toThrow();
  });
});
