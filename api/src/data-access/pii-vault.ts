import { randomBytes } from 'node:crypto';
import { Connection, Model } from 'mongoose';
import { gcmOpen, gcmSeal, packBox, unpackBox } from '../shared/aes-gcm';
import { MasterKeyRing } from '../shared/master-keys';
import { TextSealer } from '../shared/sealer';
import { DataKeyDocument, dataKeyModel } from './data-key.model';
import {
  isBvc1,
  isPii1,
  isSecretBoxV1,
  LegacyKeys,
  NO_LEGACY_KEYS,
  openBvc1,
  openSecretBoxV1,
  splitPii1,
} from './legacy-sealed-formats';
import {
  envelopeKeyId,
  isEnvelopeBytes,
  isEnvelopeText,
  openEnvelopeBytes,
  openEnvelopeText,
  sealEnvelopeBytes,
  sealEnvelopeText,
} from './sealed-envelope';

const DUPLICATE_KEY = 11000;

/** A value sealed in any format (everything else is a value stored before encryption at rest). */
export const isSealed = (value: string): boolean => isEnvelopeText(value) || isPii1(value) || isSecretBoxV1(value);

const dataKeyIdFor = (at: Date): string => `dk-${at.toISOString().slice(0, 10)}`;

/**
 * Envelope encryption of everything sealed at rest (personal fields, webhook secrets, document
 * reads, captured images): each value is AES-256-GCM under the day's data key in the one envelope
 * of `sealed-envelope.ts`, with where it is stored as associated data; data keys are sealed by the
 * active master key (PII_MASTER_KEYS) and cached in memory once opened. Values in the formats
 * written before the envelope still open (`legacyKeys`); `needsReseal` finds them for `keys reseal`.
 */
export class PiiVault implements TextSealer {
  private readonly model: Model<DataKeyDocument>;
  private readonly opened = new Map<string, Buffer>();

  constructor(
    connection: Connection,
    private readonly masterKeys: MasterKeyRing,
    private readonly now: () => Date = () => new Date(),
    private readonly legacyKeys: LegacyKeys = NO_LEGACY_KEYS,
  ) {
    this.model = dataKeyModel(connection);
  }

  async init(): Promise<void> {
    await this.model.init();
  }

  async seal(where: string, plaintext: string): Promise<string> {
    const id = dataKeyIdFor(this.now());
    return sealEnvelopeText(await this.dataKey(id, true), id, where, plaintext);
  }

  async open(where: string, stored: string): Promise<string> {
    if (isEnvelopeText(stored))
      return openEnvelopeText(await this.dataKey(envelopeKeyId(stored), false), where, stored);
    if (isPii1(stored)) {
      const { keyId, packed } = splitPii1(stored);
      return gcmOpen(await this.dataKey(keyId, false), unpackBox(packed), Buffer.from(where, 'utf8')).toString('utf8');
    }
    if (isSecretBoxV1(stored)) return openSecretBoxV1(this.legacyKeys, stored);
    return stored;
  }

  async sealBytes(where: string, plaintext: Buffer): Promise<Buffer> {
    const id = dataKeyIdFor(this.now());
    return sealEnvelopeBytes(await this.dataKey(id, true), id, where, plaintext);
  }

  async openBytes(where: string, stored: Buffer): Promise<Buffer> {
    if (isEnvelopeBytes(stored))
      return openEnvelopeBytes(await this.dataKey(envelopeKeyId(stored), false), where, stored);
    if (isBvc1(stored)) return openBvc1(this.legacyKeys, where, stored);
    throw new Error('sealed blob has an unknown format');
  }

  /** Whether `keys reseal` should rewrite it: an older format, or an envelope under another day's data key. */
  needsReseal(stored: string | Buffer): boolean {
    const current = dataKeyIdFor(this.now());
    if (typeof stored === 'string' ? isEnvelopeText(stored) : isEnvelopeBytes(stored))
      return envelopeKeyId(stored) !== current;
    return true;
  }

  /** Seals the named fields of `doc` that hold a string (null stays null: nothing to hide). */
  async sealFields<T extends object>(recordId: string, doc: T, fields: readonly string[]): Promise<T> {
    const out = { ...doc } as Record<string, unknown>;
    for (const field of fields) {
      const value = out[field];
      if (typeof value === 'string') out[field] = await this.seal(`${recordId}|${field}`, value);
    }
    return out as T;
  }

  async openFields<T extends object>(recordId: string, doc: T, fields: readonly string[]): Promise<T> {
    const out = { ...doc } as Record<string, unknown>;
    for (const field of fields) {
      const value = out[field];
      if (typeof value === 'string') out[field] = await this.open(`${recordId}|${field}`, value);
    }
    return out as T;
  }

  /**
   * Re-seals every data key not sealed by the active master key (after a new one was put first in
   * PII_MASTER_KEYS). Records are untouched; a key whose master is no longer configured is reported.
   */
  async rotate(): Promise<{
    active_master_key_id: string;
    data_keys: number;
    resealed: number;
    unopenable: string[];
  }> {
    const active = this.masterKeys.active;
    const all = await this.model.find({}, { _id: 1, master_key_id: 1, sealed_key: 1 }).lean<DataKeyDocument[]>().exec();
    let resealed = 0;
    const unopenable: string[] = [];
    for (const doc of all) {
      if (doc.master_key_id === active.id) continue;
      const master = this.masterKeys.byId.get(doc.master_key_id);
      if (!master) {
        unopenable.push(doc._id);
        continue;
      }
      const key = gcmOpen(master.key, unpackBox(Buffer.from(doc.sealed_key, 'base64')), Buffer.from(doc._id, 'utf8'));
      const sealedKey = packBox(gcmSeal(active.key, key, Buffer.from(doc._id, 'utf8'))).toString('base64');
      const result = await this.model
        .updateOne(
          { _id: doc._id, master_key_id: doc.master_key_id },
          { $set: { master_key_id: active.id, sealed_key: sealedKey, resealed_at: this.now() } },
        )
        .exec();
      resealed += result.modifiedCount;
    }
    return { active_master_key_id: active.id, data_keys: all.length, resealed, unopenable };
  }

  private async dataKey(id: string, create: boolean): Promise<Buffer> {
    const cached = this.opened.get(id);
    if (cached) return cached;
    let doc = await this.model.findById(id).lean<DataKeyDocument>().exec();
    if (!doc && create) doc = await this.createDataKey(id);
    if (!doc) throw new Error(`data key ${id} is missing`);
    const master = this.masterKeys.byId.get(doc.master_key_id);
    if (!master)
      throw new Error(
        `data key ${id} is sealed by master key ${doc.master_key_id}, which PII_MASTER_KEYS does not hold`,
      );
    const key = gcmOpen(master.key, unpackBox(Buffer.from(doc.sealed_key, 'base64')), Buffer.from(id, 'utf8'));
    this.opened.set(id, key);
    return key;
  }

  /** Of racing creators the first insert wins; the others read the winner's key. */
  private async createDataKey(id: string): Promise<DataKeyDocument> {
    const active = this.masterKeys.active;
    const doc: DataKeyDocument = {
      _id: id,
      master_key_id: active.id,
      sealed_key: packBox(gcmSeal(active.key, randomBytes(32), Buffer.from(id, 'utf8'))).toString('base64'),
      created_at: this.now(),
      resealed_at: null,
    };
    try {
      await this.model.create(doc);
      return doc;
    } catch (error) {
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
      return (await this.model.findById(id).lean<DataKeyDocument>().exec()) as DataKeyDocument;
    }
  }
}
