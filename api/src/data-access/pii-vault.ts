import { randomBytes } from 'node:crypto';
import { Connection, Model } from 'mongoose';
import { gcmOpen, gcmSeal, packBox, unpackBox } from '../shared/aes-gcm';
import { MasterKeyRing } from '../shared/master-keys';
import { DataKeyDocument, dataKeyModel } from './data-key.model';

const PREFIX = 'pii1:';
const DUPLICATE_KEY = 11000;

/** A value this vault wrote (everything else is a value stored before encryption at rest). */
export const isSealed = (value: string): boolean => value.startsWith(PREFIX);

const dataKeyIdFor = (at: Date): string => `dk-${at.toISOString().slice(0, 10)}`;

/**
 * Envelope encryption of personal data at rest: each value is AES-256-GCM under the day's data
 * key, with where it is stored (`<record>|<field>`) as associated data; data keys are sealed by
 * the active master key (PII_MASTER_KEYS) and cached in memory once opened. A sealed value reads
 * `pii1:<data key id>:<base64 iv‖ciphertext‖tag>`.
 */
export class PiiVault {
  private readonly model: Model<DataKeyDocument>;
  private readonly opened = new Map<string, Buffer>();

  constructor(connection: Connection, private readonly masterKeys: MasterKeyRing, private readonly now: () => Date = () => new Date()) {
    this.model = dataKeyModel(connection);
  }

  async init(): Promise<void> {
    await this.model.init();
  }

  async seal(where: string, plaintext: string): Promise<string> {
    const id = dataKeyIdFor(this.now());
    const key = await this.dataKey(id, true);
    return `${PREFIX}${id}:${packBox(gcmSeal(key, Buffer.from(plaintext, 'utf8'), Buffer.from(where, 'utf8'))).toString('base64')}`;
  }

  async open(where: string, stored: string): Promise<string> {
    if (!isSealed(stored)) return stored;
    const [id, packed] = stored.slice(PREFIX.length).split(':') as [string, string];
    const key = await this.dataKey(id, false);
    return gcmOpen(key, unpackBox(Buffer.from(packed, 'base64')), Buffer.from(where, 'utf8')).toString('utf8');
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
  async rotate(): Promise<{ active_master_key_id: string; data_keys: number; resealed: number; unopenable: string[] }> {
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
      const result = await this.model.updateOne({ _id: doc._id, master_key_id: doc.master_key_id }, { $set: { master_key_id: active.id, sealed_key: sealedKey, resealed_at: this.now() } }).exec();
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
    if (!master) throw new Error(`data key ${id} is sealed by master key ${doc.master_key_id}, which PII_MASTER_KEYS does not hold`);
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
