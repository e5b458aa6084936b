import { createHmac, hkdfSync } from 'node:crypto';
import { Connection, mongo } from 'mongoose';
import type { CaptureFingerprint, CaptureFingerprints, ReusedCapture } from '../domain/ports/capture-fingerprints';

const DUPLICATE_KEY = 11000;

interface FingerprintDoc {
  _id: string;
  session_id: string;
  kind: string;
  created_at: Date;
}

/** The fingerprints a session owns, by `_id`, so its redaction deletes them without a scan. */
interface SessionPrintsDoc {
  _id: string;
  ids: string[];
}

/**
 * One document per (account, fingerprint), its `_id` the pair, so the first session to record a
 * capture owns it with a plain insert (the only index FerretDB pushes down is `_id`). The key is
 * derived from CAPTURE_ENCRYPTION_KEY, so the digests are worthless outside the deployment.
 */
export class CaptureFingerprintRepository implements CaptureFingerprints {
  private readonly collection: mongo.Collection<FingerprintDoc>;
  private readonly bySession: mongo.Collection<SessionPrintsDoc>;
  private readonly key: Buffer;

  constructor(connection: Connection, captureKeyBase64: string) {
    const db = connection.db;
    if (!db) throw new Error('the store connection is not open');
    this.collection = db.collection<FingerprintDoc>('capture_fingerprints');
    this.bySession = db.collection<SessionPrintsDoc>('capture_fingerprint_sessions');
    this.key = Buffer.from(
      hkdfSync('sha256', Buffer.from(captureKeyBase64, 'base64'), Buffer.alloc(0), 'bioverify capture fingerprint', 32),
    );
  }

  of(bytes: Buffer): string {
    return createHmac('sha256', this.key).update(bytes).digest('base64url');
  }

  async claim(accountId: string, sessionId: string, prints: CaptureFingerprint[]): Promise<ReusedCapture[]> {
    const unique = [...new Map(prints.map((p) => [p.value, p])).values()];
    // The pointer first: a fingerprint is never owned without its session being able to find it.
    // One decision per session at a time (the transition claim), so read-then-replace is safe.
    const pointer = `${accountId}:${sessionId}`;
    const listed = (await this.bySession.findOne({ _id: pointer }))?.ids ?? [];
    const ids = [...new Set([...listed, ...unique.map((p) => `${accountId}:${p.value}`)])];
    await this.bySession.replaceOne({ _id: pointer }, { ids }, { upsert: true });
    const owners = await Promise.all(
      unique.map(async ({ kind, value }) => {
        const _id = `${accountId}:${value}`;
        try {
          await this.collection.insertOne({ _id, session_id: sessionId, kind, created_at: new Date() });
          return null;
        } catch (error) {
          if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
          const owner = await this.collection.findOne({ _id });
          return owner && owner.session_id !== sessionId ? { kind, session_id: owner.session_id } : null;
        }
      }),
    );
    return owners.filter((o): o is ReusedCapture => o !== null);
  }

  async forget(accountId: string, sessionId: string): Promise<void> {
    const pointer = `${accountId}:${sessionId}`;
    const ids = (await this.bySession.findOne({ _id: pointer }))?.ids ?? [];
    // Only those this session owns: the others listed are another session's first sighting.
    for (const _id of ids) await this.collection.deleteOne({ _id, session_id: sessionId });
    await this.bySession.deleteOne({ _id: pointer });
  }
}
