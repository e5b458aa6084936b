import { Connection, Schema } from 'mongoose';
import { CaptureState } from '../domain/capture/capture-state';

export type { CapturedLiveness, CapturedSelfie, CapturedSide } from '../domain/capture/capture-state';

/** The capture of one attempt of one session as stored (see domain/capture/capture-state.ts). */
export type CaptureStateDocument = CaptureState;

const captureStateSchema = new Schema<CaptureStateDocument>(
  {
    _id: { type: String, required: true },
    session_id: { type: String, required: true },
    attempt: { type: Number, required: true },
    token_hash: { type: String, required: true },
    challenge: { type: [String], required: true },
    document_type: { type: String, default: null },
    front: { type: Schema.Types.Mixed, default: null },
    back: { type: Schema.Types.Mixed, default: null },
    liveness: { type: Schema.Types.Mixed, default: null },
    selfie: { type: Schema.Types.Mixed, default: null },
    paced: { type: Schema.Types.Mixed, default: null },
    chip: { type: Schema.Types.Mixed, default: null },
    chip_challenge: { type: Schema.Types.Mixed, default: null },
    integrity: { type: Schema.Types.Mixed, default: null },
    last_write_at: { type: Date, required: true },
    submitted_at: { type: Date, default: null },
    purge_after: { type: Date, default: null },
    purged_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
// Retention sweep: "captures whose purge time has passed and are not purged yet".
captureStateSchema.index({ purge_after: 1 });

export const captureStateModel = (connection: Connection) =>
  connection.model<CaptureStateDocument>('CaptureState', captureStateSchema, 'capture_states');
