import { Connection, mongo } from 'mongoose';
import { documentReadWhere, webhookSecretWhere } from '../shared/sealer';
import { accountModels } from './account.model';
import { CaptureBlobRepository } from './capture-blob.repository';
import { captureStateModel } from './capture-state.model';
import { PiiVault } from './pii-vault';
import { sessionAttemptModel } from './session-attempt.model';
import { PERSONAL_SESSION_FIELDS, sessionModel } from './session.model';
import { transitionClaimModel } from './transition-claim.model';

type Doc = Record<string, unknown>;

const valueAt = (doc: Doc, path: string): unknown =>
  path.split('.').reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Doc)[key] : undefined), doc);

/**
 * Rewrites, in one collection, each sealed string at `paths` that is not in the current envelope
 * under the current data key. Each write is conditional on the value it read, so it runs beside
 * live traffic (a value rewritten meanwhile is left to the live writer) and can be run again.
 */
async function resealStrings(
  vault: PiiVault,
  collection: mongo.Collection,
  paths: readonly string[],
  whereOf: (doc: Doc, path: string) => string,
): Promise<number> {
  let resealed = 0;
  const projection = Object.fromEntries([...paths, 'session_id'].map((p) => [p, 1]));
  for await (const doc of collection.find({}, { projection })) {
    for (const path of paths) {
      const stored = valueAt(doc, path);
      if (typeof stored !== 'string' || !vault.needsReseal(stored)) continue;
      const where = whereOf(doc, path);
      const sealed = await vault.seal(where, await vault.open(where, stored));
      const result = await collection.updateOne({ _id: doc._id, [path]: stored }, { $set: { [path]: sealed } });
      resealed += result.modifiedCount;
    }
  }
  return resealed;
}

const lastSegment = (path: string): string => path.slice(path.lastIndexOf('.') + 1);

/**
 * `npm run admin -- keys reseal`: the data keys are re-sealed under the active master key, then
 * every kind of sealed data (personal fields of sessions, archived attempts and pending transition
 * claims, webhook secrets, document reads, captured images) is rewritten in the one envelope under
 * the day's data key, whatever format or key it was in. Old master keys and the legacy keys are
 * no longer needed once it reports nothing left unopenable.
 */
export async function resealAtRest(connection: Connection, vault: PiiVault) {
  const dataKeys = await vault.rotate();
  const personal = PERSONAL_SESSION_FIELDS as readonly string[];
  const sessions = await resealStrings(
    vault,
    sessionModel(connection).collection,
    personal,
    (doc, path) => `${String(doc._id)}|${path}`,
  );
  const attempts = await resealStrings(
    vault,
    sessionAttemptModel(connection).collection,
    ['result_body'],
    (doc) => `${String(doc.session_id)}|result_body`,
  );
  const claimPaths = personal.map((field) => `update.${field}`);
  const claims = await resealStrings(
    vault,
    transitionClaimModel(connection).collection,
    claimPaths,
    (doc, path) => `${String(doc.session_id)}|${lastSegment(path)}`,
  );
  const secrets = await resealStrings(
    vault,
    accountModels(connection).Account.collection,
    ['webhook_secret_sealed'],
    (doc) => webhookSecretWhere(String(doc._id)),
  );
  const reads = await resealStrings(
    vault,
    captureStateModel(connection).collection,
    ['front.read_sealed', 'back.read_sealed'],
    (doc) => documentReadWhere(String(doc.session_id)),
  );
  const blobs = await new CaptureBlobRepository(connection, vault).resealAll();
  return {
    data_keys: dataKeys,
    resealed: {
      session_fields: sessions,
      attempt_results: attempts,
      claim_fields: claims,
      webhook_secrets: secrets,
      document_reads: reads,
      capture_blobs: blobs,
    },
  };
}
