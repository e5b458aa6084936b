import { Connection } from 'mongoose';
import { accountModels } from '../../../src/data-access/account.model';
import { captureStateModel } from '../../../src/data-access/capture-state.model';
import { openVault } from '../../../src/data-access/open-vault';
import { sessionAttemptModel } from '../../../src/data-access/session-attempt.model';
import { sessionModel } from '../../../src/data-access/session.model';
import { transitionClaimModel } from '../../../src/data-access/transition-claim.model';
import { insertDataKey, pii1, secretBoxV1, uploadBvc1 } from './legacy-sealed-writers';

export const SESSION = 'ses_sealedformats0000000000';
export const ACCOUNT = 'acct_sealedformats';
export const OLD_DAY_KEY = 'dk-2001-01-01';

/** What an old deployment held, and the keys it held it under. */
export interface LegacyData {
  oldMaster: Buffer;
  /** The new master key first, then the old one. */
  bothMasterKeys: string;
  image: Buffer;
  /** A document read, as JSON. */
  read: string;
}

/**
 * One of every kind of sealed record, each in the format an old deployment wrote: a session and
 * a transition claim with pii1 fields, an archived attempt in an envelope under a past day's
 * data key, an account's v1 webhook secret, a capture state's v1 document read and its BVC1
 * image. Answers the image's blob id.
 */
export async function writeLegacyRecords(
  connection: Connection,
  keys: { SECRET_ENCRYPTION_KEY: string; CAPTURE_ENCRYPTION_KEY: string },
  legacy: LegacyData,
): Promise<string> {
  const dataKey = await insertDataKey(connection, OLD_DAY_KEY, 'old', legacy.oldMaster);
  const now = new Date();
  await sessionModel(connection).collection.insertOne({
    _id: SESSION as never,
    account_id: ACCOUNT,
    environment: 'sandbox',
    status: 'VERIFIED',
    failure_reason: null,
    return_url: 'https://e.com',
    webhook_url: 'https://e.com/w',
    expected_name: pii1(OLD_DAY_KEY, dataKey, `${SESSION}|expected_name`, 'Ines Legacy'),
    expected_dob: null,
    expected_address: null,
    locale: 'en',
    metadata_json: '{"order":"plain before encryption at rest"}',
    created_at: now,
    updated_at: now,
    expires_at: now,
    result_body: pii1(OLD_DAY_KEY, dataKey, `${SESSION}|result_body`, '{"status":"VERIFIED"}'),
    webhook_state: 'none',
    billed: false,
  });
  // A claim's update is re-applied if its winner died, so what it carries is sealed like the session.
  await transitionClaimModel(connection).collection.insertOne({
    _id: `${SESSION}:PROCESSING` as never,
    session_id: SESSION,
    attempt: 1,
    from: 'PROCESSING',
    to: 'VERIFIED',
    claimed_at: now,
    update: {
      status: 'VERIFIED',
      result_body: pii1(OLD_DAY_KEY, dataKey, `${SESSION}|result_body`, '{"status":"VERIFIED"}'),
    },
  });
  // An envelope already, but under a past day's data key: re-sealed too, so no old key stays in use.
  const pastVault = openVault(
    connection,
    { PII_MASTER_KEYS: legacy.bothMasterKeys },
    () => new Date('2001-01-01T12:00:00Z'),
  );
  await sessionAttemptModel(connection).collection.insertOne({
    _id: `${SESSION}:1` as never,
    session_id: SESSION,
    attempt: 1,
    account_id: ACCOUNT,
    environment: 'sandbox',
    status: 'FAILED',
    failure_reason: 'NAME_MISMATCH',
    result_body: await pastVault.seal(`${SESSION}|result_body`, '{"status":"FAILED"}'),
    decided_at: now,
    webhook_url: 'https://e.com/w',
    webhook_state: 'none',
    webhook_delivery_id: null,
    webhook_redeliveries: 0,
    archived_at: now,
  });
  await accountModels(connection).Account.collection.insertOne({
    _id: ACCOUNT as never,
    name: 'Legacy',
    plan: 'starter',
    watchlist: false,
    webhook_secret_sealed: secretBoxV1(keys.SECRET_ENCRYPTION_KEY, 'whsec_legacy'),
    created_at: now,
  });
  const blobId = await uploadBvc1(connection, keys.CAPTURE_ENCRYPTION_KEY, SESSION, legacy.image);
  await captureStateModel(connection).collection.insertOne({
    _id: `${SESSION}:1` as never,
    session_id: SESSION,
    attempt: 1,
    token_hash: 'h',
    challenge: [],
    document_type: 'passport',
    front: {
      blob_id: blobId,
      uploads: 1,
      readable: true,
      reason: null,
      read_sealed: secretBoxV1(keys.CAPTURE_ENCRYPTION_KEY, legacy.read),
      portrait_blob_id: null,
    },
    back: null,
    liveness: null,
    selfie: null,
    last_write_at: now,
    submitted_at: null,
    purge_after: null,
    purged_at: null,
    created_at: now,
  });
  return blobId;
}
