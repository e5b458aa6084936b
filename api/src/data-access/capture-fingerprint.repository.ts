import { createHmac, hkdfSync } from 'node:crypto';
import { Connection, mongo } from 'mongoose';
import type {
  CaptureFingerprint,
  CaptureFingerprints,
  CaptureKind,
  CaptureSighting,
} from '../domain/ports/capture-fingerprints';
import { bandKeys, openHash, PERCEPTUAL_LINE, sealHash } from './perceptual-bands';
import { dctHash, hammingDistance } from './perceptual-hash';

const DUPLICATE_KEY = 11000;

interface FingerprintDoc {
  _id: string;
  session_id: string;
  kind: string;
  created_at: Date;
}

/** One band value of one kind in one account: every capture whose hash has it, with its sealed hash. */
interface BandDoc {
  _id: string;
  members: { s: string; h: string }[];
}

/** What a session recorded, by `_id`, so its redaction deletes it without a scan. */
interface SessionPrintsDoc {
  _id: string;
  ids: string[];
  bands?: string[];
}

/**
 * Exact digests: one document per (account, digest), its `_id` the pair, so the first session to
 * record a capture owns it with a plain insert (the only index FerretDB pushes down is `_id`).
 * Perceptual hashes (selfies and liveness frames; documents of one template hash alike, so they
 * stay exact): one document per keyed band value listing the captures that have it, each with its
 * full hash sealed, confirmed by Hamming distance. Every key is derived from CAPTURE_ENCRYPTION_KEY,
 * so nothing stored is worth anything outside the deployment.
 */
export class CaptureFingerprintRepository implements CaptureFingerprints {
  private readonly collection: mongo.Collection<FingerprintDoc>;
  private readonly bands: mongo.Collection<BandDoc>;
  private readonly bySession: mongo.Collection<SessionPrintsDoc>;
  private readonly key: Buffer;
  private readonly bandKey: Buffer;
  private readonly sealKey: Buffer;

  constructor(connection: Connection, captureKeyBase64: string) {
    const db = connection.db;
    if (!db) throw new Error('the store connection is not open');
    this.collection = db.collection<FingerprintDoc>('capture_fingerprints');
    this.bands = db.collection<BandDoc>('capture_perceptual_bands');
    this.bySession = db.collection<SessionPrintsDoc>('capture_fingerprint_sessions');
    const master = Buffer.from(captureKeyBase64, 'base64');
    const derive = (info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
    this.key = derive('bioverify capture fingerprint');
    this.bandKey = derive('bioverify capture perceptual band');
    this.sealKey = derive('bioverify capture perceptual seal');
  }

  async of(kind: CaptureKind, bytes: Buffer, options: { perceptual?: boolean } = {}): Promise<CaptureFingerprint> {
    const exact = createHmac('sha256', this.key).update(bytes).digest('base64url');
    if (kind === 'document' || options.perceptual === false) return { kind, exact, perceptual: null };
    // Pixels sharp cannot read are still matched byte for byte.
    const perceptual = await dctHash(bytes).catch(() => null);
    return { kind, exact, perceptual };
  }

  async claim(accountId: string, sessionId: string, prints: CaptureFingerprint[]): Promise<CaptureSighting[]> {
    const perceptual = prints.flatMap((p, index) =>
      p.perceptual
        ? [{ ...p, index, perceptual: p.perceptual, keys: bandKeys(this.bandKey, accountId, p.kind, p.perceptual) }]
        : [],
    );
    // The pointer first: nothing is recorded without its session being able to find it.
    // One decision per session at a time (the transition claim), so read-then-replace is safe.
    const pointer = `${accountId}:${sessionId}`;
    const listed = await this.bySession.findOne({ _id: pointer });
    const ids = [...new Set([...(listed?.ids ?? []), ...prints.map((p) => `${accountId}:${p.exact}`)])];
    const bands = [...new Set([...(listed?.bands ?? []), ...perceptual.flatMap((p) => p.keys)])];
    await this.bySession.replaceOne({ _id: pointer }, { ids, bands }, { upsert: true });
    const [exact, copies] = await Promise.all([
      this.claimExact(accountId, sessionId, prints),
      this.findCopies(sessionId, perceptual),
    ]);
    const joins = perceptual.flatMap(({ kind, index, perceptual: hash, keys }) => {
      const member = { s: sessionId, h: sealHash(this.sealKey, hash, `${accountId}\0${sessionId}\0${kind}\0${index}`) };
      return keys.map((_id) => ({
        updateOne: { filter: { _id }, update: { $addToSet: { members: member } }, upsert: true },
      }));
    });
    if (joins.length > 0) {
      try {
        await this.bands.bulkWrite(joins, { ordered: false });
      } catch (error) {
        // Racing upserts of a new band value: the loser's is a duplicate key; the value exists now.
        if (!duplicateIndexes(error)) throw error;
        await this.bands.bulkWrite(joins, { ordered: false });
      }
    }
    const exactly = new Set(exact.map((s) => `${s.index}:${s.session_id}`));
    return [...exact, ...copies.filter((s) => !exactly.has(`${s.index}:${s.session_id}`))];
  }

  /**
   * One unordered insert for every digest: the first session to record a capture owns it, and a
   * duplicate key names the digests another session (or this one, retried) recorded first, whose
   * owners one `$in` read fetches. A paced challenge keeps up to 60 frames: one round trip and one
   * store transaction instead of one each.
   */
  private async claimExact(
    accountId: string,
    sessionId: string,
    prints: CaptureFingerprint[],
  ): Promise<CaptureSighting[]> {
    const first = new Map<string, number>();
    prints.forEach((p, index) => first.has(p.exact) || first.set(p.exact, index));
    const entries = [...first].map(([value, index]) => ({
      _id: `${accountId}:${value}`,
      index,
      kind: prints[index].kind,
    }));
    if (entries.length === 0) return [];
    const created_at = new Date();
    let taken: typeof entries = [];
    try {
      await this.collection.insertMany(
        entries.map(({ _id, kind }) => ({ _id, session_id: sessionId, kind, created_at })),
        { ordered: false },
      );
    } catch (error) {
      const failed = duplicateIndexes(error);
      if (!failed) throw error;
      taken = entries.filter((_, i) => failed.has(i));
    }
    if (taken.length === 0) return [];
    const owners = await this.collection.find({ _id: { $in: taken.map((t) => t._id) } }).toArray();
    const ownerOf = new Map(owners.map((o) => [o._id, o.session_id]));
    return taken.flatMap(({ _id, index, kind }) => {
      const owner = ownerOf.get(_id);
      return !owner || owner === sessionId ? [] : [{ kind, index, session_id: owner, exact: true }];
    });
  }

  /** Other sessions' captures within the line of each hash: candidates from any matching band, confirmed by distance. */
  private async findCopies(
    sessionId: string,
    prints: { kind: CaptureKind; index: number; perceptual: string; keys: string[] }[],
  ): Promise<CaptureSighting[]> {
    const keys = [...new Set(prints.flatMap((p) => p.keys))];
    const docs = keys.length ? await this.bands.find({ _id: { $in: keys } }).toArray() : [];
    const byKey = new Map(docs.map((d) => [d._id, d.members]));
    const opened = new Map<string, string>();
    const open = (sealed: string) =>
      opened.get(sealed) ?? opened.set(sealed, openHash(this.sealKey, sealed)).get(sealed)!;
    const sightings = new Map<string, CaptureSighting>();
    for (const { kind, index, perceptual, keys: mine } of prints) {
      for (const member of mine.flatMap((k) => byKey.get(k) ?? [])) {
        if (member.s === sessionId || sightings.has(`${index}:${member.s}`)) continue;
        if (hammingDistance(open(member.h), perceptual) > PERCEPTUAL_LINE) continue;
        sightings.set(`${index}:${member.s}`, { kind, index, session_id: member.s, exact: false });
      }
    }
    return [...sightings.values()];
  }

  async forget(accountId: string, sessionId: string): Promise<void> {
    const pointer = `${accountId}:${sessionId}`;
    const listed = await this.bySession.findOne({ _id: pointer });
    // Only those this session owns: the others listed are another session's first sighting.
    for (const _id of listed?.ids ?? []) await this.collection.deleteOne({ _id, session_id: sessionId });
    for (const _id of listed?.bands ?? []) {
      // $pull by whole value (FerretDB does not pull by a condition on a member's field), so a
      // member another session adds meanwhile is never lost to a read-then-replace.
      const band = await this.bands.findOne({ _id });
      const mine = band?.members.filter((m) => m.s === sessionId) ?? [];
      for (const member of mine) await this.bands.updateOne({ _id }, { $pull: { members: member } });
      const left = await this.bands.findOne({ _id });
      if (left && left.members.length === 0) await this.bands.deleteOne({ _id, members: { $size: 0 } });
    }
    await this.bySession.deleteOne({ _id: pointer });
  }
}

/** The indexes of a bulk write's failed operations when every failure is a duplicate key, else null. */
function duplicateIndexes(error: unknown): Set<number> | null {
  const reported = (error as { writeErrors?: unknown }).writeErrors;
  const writeErrors = (Array.isArray(reported) ? reported : reported ? [reported] : []) as Array<{
    index: number;
    code?: number;
    err?: { code?: number };
  }>;
  if (writeErrors.length === 0 || !writeErrors.every((e) => (e.code ?? e.err?.code) === DUPLICATE_KEY)) return null;
  return new Set(writeErrors.map((e) => e.index));
}
