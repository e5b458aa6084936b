import { Connection, Model, Schema } from 'mongoose';

/**
 * One data key per UTC day (`_id` = `dk-YYYY-MM-DD`), sealed by a master key whose id is kept
 * beside it: rotating the master key re-seals these few documents, never the records they encrypt.
 * The day's key is created by an insert, so racing processes agree on one (duplicate _id).
 */
export interface DataKeyDocument {
  _id: string;
  master_key_id: string;
  /** base64 of iv ‖ ciphertext ‖ tag, the data key's own id bound in as associated data. */
  sealed_key: string;
  created_at: Date;
  resealed_at: Date | null;
}

const dataKeySchema = new Schema<DataKeyDocument>(
  {
    _id: { type: String, required: true },
    master_key_id: { type: String, required: true },
    sealed_key: { type: String, required: true },
    created_at: { type: Date, required: true },
    resealed_at: { type: Date, default: null },
  },
  { versionKey: false },
);

const MODEL_NAME = 'DataKey';

export const dataKeyModel = (connection: Connection): Model<DataKeyDocument> =>
  (connection.models[MODEL_NAME] as Model<DataKeyDocument> | undefined) ??
  connection.model<DataKeyDocument>(MODEL_NAME, dataKeySchema, 'data_keys');
