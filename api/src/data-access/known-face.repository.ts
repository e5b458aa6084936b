import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { Connection, mongo } from 'mongoose';
import type { FaceGallery, KnownFace, KnownFaces } from '../domain/ports/known-faces';
import type { TextSealer } from '../shared/sealer';

const DUPLICATE_KEY = 11000;
const READ_BATCH = 500;
/** Faces redacted elsewhere leave a worker's memory within this long, even if never matched. */
const FULL_RELOAD_MS = 60 * 60 * 1000;

/** A face slot: `<gallery>#<n>`, n counting from 1 without holes; a forgotten face leaves a tombstone. */
interface FaceDoc {
  _id: string;
  session_id: string;
  /** JSON {identity_key, embedding: base64 float32}, sealed with the slot bound in; null once forgotten. */
  sealed: string | null;
  created_at: Date;
}

/** Which slot holds a session's face, so a redaction finds it with one _id read. */
interface PointerDoc {
  _id: string;
  face_id: string;
}

interface Index {
  faces: Map<string, KnownFace>;
  /** The highest slot read. */
  last: number;
  loadedAt: number;
}

/**
 * The account's verified faces, sealed at rest, in `known_faces`. Every read is by `_id` (served
 * by the _id index on MongoDB and on the embedded FerretDB as patched): a gallery's faces sit in numbered slots claimed by a unique
 * insert, so a process reads its gallery once, then only the slots added since (one `$in` read per
 * decision), and keeps the opened descriptors in memory: a decision never opens more than the new
 * faces. A face forgotten by another process stays in this one's memory until its next full reload
 * (at most FULL_RELOAD_MS), and is never reported meanwhile: a match is confirmed by `stillKnown`.
 */
export class KnownFaceRepository implements KnownFaces {
  private readonly slots: mongo.Collection<FaceDoc>;
  private readonly pointers: mongo.Collection<PointerDoc>;
  private readonly key: Buffer;
  private readonly indexes = new Map<string, Promise<Index>>();

  constructor(
    connection: Connection,
    captureKeyBase64: string,
    private readonly sealer: TextSealer,
    private readonly now: () => number = Date.now,
  ) {
    const db = connection.db;
    if (!db) throw new Error('the store connection is not open');
    this.slots = db.collection<FaceDoc>('known_faces');
    this.pointers = db.collection<PointerDoc>('known_face_sessions');
    this.key = Buffer.from(
      hkdfSync('sha256', Buffer.from(captureKeyBase64, 'base64'), Buffer.alloc(0), 'bioverify known face identity', 32),
    );
  }

  identityKey(normalisedIdentity: string): string {
    return createHmac('sha256', this.key).update(normalisedIdentity, 'utf8').digest('base64url');
  }

  async faces(gallery: FaceGallery): Promise<readonly KnownFace[]> {
    return [...(await this.current(gallery)).faces.values()];
  }

  async stillKnown(accountId: string, sessionId: string): Promise<boolean> {
    return (await this.pointers.findOne({ _id: pointerId(accountId, sessionId) })) !== null;
  }

  async remember(gallery: FaceGallery, face: KnownFace): Promise<void> {
    await this.forget(gallery.accountId, face.session_id);
    const prefix = galleryId(gallery);
    const index = await this.current(gallery);
    const embedding = Buffer.from(face.embedding.buffer, face.embedding.byteOffset, face.embedding.byteLength);
    for (let slot = index.last + 1; ; slot += 1) {
      const _id = `${prefix}#${slot}`;
      const plain = JSON.stringify({ identity_key: face.identity_key, embedding: embedding.toString('base64') });
      try {
        await this.slots.insertOne({
          _id,
          session_id: face.session_id,
          sealed: await this.sealer.seal(`${_id}|known_face`, plain),
          created_at: new Date(this.now()),
        });
      } catch (error) {
        if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
        continue;
      }
      await this.pointers.updateOne(
        { _id: pointerId(gallery.accountId, face.session_id) },
        { $set: { face_id: _id } },
        { upsert: true },
      );
      return;
    }
  }

  async forget(accountId: string, sessionId: string): Promise<void> {
    const _id = pointerId(accountId, sessionId);
    const pointer = await this.pointers.findOne({ _id });
    if (!pointer) return;
    await this.slots.updateOne({ _id: pointer.face_id }, { $set: { sealed: null } });
    await this.pointers.deleteOne({ _id });
    for (const index of this.indexes.values()) (await index).faces.delete(pointer.face_id);
  }

  /** The gallery's index, loaded on first use, reloaded whole now and then, and read forward from its last slot. */
  private current(gallery: FaceGallery): Promise<Index> {
    const prefix = galleryId(gallery);
    const fresh = (): Index => ({ faces: new Map(), last: 0, loadedAt: this.now() });
    const cached = this.indexes.get(prefix) ?? Promise.resolve(fresh());
    // Chained synchronously, so reads of one index never overlap (each moves its last slot on).
    const next = cached.then((index) =>
      this.readForward(prefix, this.now() - index.loadedAt > FULL_RELOAD_MS ? fresh() : index),
    );
    this.indexes.set(prefix, next);
    next.catch(() => this.indexes.delete(prefix));
    return next;
  }

  private async readForward(prefix: string, index: Index): Promise<Index> {
    for (;;) {
      const ids = Array.from({ length: READ_BATCH }, (_, i) => `${prefix}#${index.last + 1 + i}`);
      const docs = await this.slots.find({ _id: { $in: ids } }).toArray();
      const bySlot = new Map(docs.map((d) => [d._id, d]));
      let read = 0;
      for (const id of ids) {
        const doc = bySlot.get(id);
        if (!doc) break;
        read += 1;
        if (doc.sealed) {
          const { identity_key, embedding } = JSON.parse(await this.sealer.open(`${id}|known_face`, doc.sealed)) as {
            identity_key: string;
            embedding: string;
          };
          const bytes = Buffer.from(embedding, 'base64');
          index.faces.set(id, {
            session_id: doc.session_id,
            identity_key,
            embedding: new Float32Array(Uint8Array.from(bytes).buffer),
          });
        }
      }
      index.last += read;
      if (read < READ_BATCH) return index;
    }
  }
}

const pointerId = (accountId: string, sessionId: string): string => `${accountId}:${sessionId}`;

/** The gallery's slot prefix: account, environment and embedding space (hashed: the model's name is long). */
function galleryId({ accountId, environment, space }: FaceGallery): string {
  const spaceId = createHash('sha256').update(`${space.metric}|${space.model}`).digest('base64url').slice(0, 16);
  return `${accountId}:${environment}:${spaceId}`;
}
