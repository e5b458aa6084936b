import type { Environment } from '../environment';

/**
 * The embedding space a face was described in: the model that described it and the metric its
 * scores use. Faces from another space are never compared (a model change starts a new gallery).
 */
export interface FaceSpace {
  model: string;
  metric: 'euclidean_distance' | 'cosine_similarity';
}

/** One verified face of an account: whose session, under which identity (a keyed digest), and its descriptor. */
export interface KnownFace {
  session_id: string;
  identity_key: string;
  embedding: Float32Array;
}

/** Where a gallery lives: an account's verified faces, production and sandbox apart. */
export interface FaceGallery {
  accountId: string;
  environment: Environment;
  space: FaceSpace;
}

/**
 * The faces verified in an account (known_face): sealed at rest, scoped to the account and its
 * environment, one per session, deleted with the session's redaction. The identity key is a keyed
 * digest of the normalised name and date of birth: equal identities give equal keys, and without
 * the deployment's key it reveals nothing.
 */
export interface KnownFaces {
  /** The keyed digest of an identity already normalised (known-face-search.ts `normalisedIdentity`). */
  identityKey(normalisedIdentity: string): string;
  /** Every face of the gallery (the adapter may answer from an in-memory index it keeps current). */
  faces(gallery: FaceGallery): Promise<readonly KnownFace[]>;
  /** Whether a face found in `faces` is still stored (another process may have redacted it since). */
  stillKnown(accountId: string, sessionId: string): Promise<boolean>;
  remember(gallery: FaceGallery, face: KnownFace): Promise<void>;
  forget(accountId: string, sessionId: string): Promise<void>;
}
