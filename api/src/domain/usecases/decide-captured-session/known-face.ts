import type { DocumentPerson, FaceMatchRun } from '../../checks/check-results';
import {
  decodeEmbedding,
  KnownFaceOutcome,
  knownFaceScore,
  MAX_NAMED_MATCHES,
  normalisedIdentity,
  searchKnownFaces,
} from '../../known-face/known-face-search';
import type { FaceGallery, FaceSpace, KnownFace, KnownFaces } from '../../ports/known-faces';
import type { Session } from '../../session/session';

export type KnownFacePolicy = 'report' | 'fail';

/** The search's outcome for the decision, and the face to remember if the session is verified. */
export interface KnownFaceSearch {
  outcome: KnownFaceOutcome;
  gallery: FaceGallery;
  face: KnownFace;
}

/**
 * Searches the account's verified faces for the selfie (known_face). Runs when the face match
 * described the selfie and the document gave a name and date of birth to key the identity by.
 * Sandbox sessions search the account's sandbox faces only and never fail on them, whatever the
 * policy: integrators replay the same recordings under many test identities, and the signal is
 * there for them to see in the report, not to fail their tests.
 */
export async function searchKnownFace(
  deps: { knownFaces: KnownFaces },
  session: Pick<Session, '_id' | 'account_id' | 'environment'>,
  faceMatch: FaceMatchRun | null,
  person: Pick<DocumentPerson, 'name' | 'dob'> | null,
  policy: KnownFacePolicy,
): Promise<KnownFaceSearch | null> {
  const record = knownFaceRecord(deps, session, faceMatch, person);
  if (!record) return null;
  const { gallery, face, threshold } = record;
  const { space } = gallery;
  const started = performance.now();
  const { best, matches } = searchKnownFaces(face.embedding, await deps.knownFaces.faces(gallery), {
    metric: space.metric,
    line: threshold,
    identityKey: face.identity_key,
    sessionId: session._id,
  });
  // A face redacted by another process since this one loaded it is not evidence any more.
  const confirmed: string[] = [];
  for (const match of matches) {
    if (confirmed.length >= MAX_NAMED_MATCHES) break;
    if (await deps.knownFaces.stillKnown(session.account_id, match.session_id)) confirmed.push(match.session_id);
  }
  return {
    outcome: {
      policy: session.environment === 'production' ? policy : 'report',
      score: best === null ? null : knownFaceScore(space.metric, best, threshold),
      matched_sessions: confirmed,
      duration_ms: Math.round(performance.now() - started),
    },
    gallery,
    face,
  };
}

/**
 * The face a verified session adds to its account's gallery, described by the face match's
 * selfie embedding and keyed by the document's name and date of birth; null when either is missing.
 */
export function knownFaceRecord(
  deps: { knownFaces: Pick<KnownFaces, 'identityKey'> },
  session: Pick<Session, '_id' | 'account_id' | 'environment'>,
  faceMatch: FaceMatchRun | null,
  person: Pick<DocumentPerson, 'name' | 'dob'> | null,
): { gallery: FaceGallery; face: KnownFace; threshold: number } | null {
  const score = faceMatch?.scores[0];
  if (!faceMatch?.selfie_embedding || !faceMatch.embedding_model || !score || !person?.name || !person.dob) return null;
  if (score.name !== 'euclidean_distance' && score.name !== 'cosine_similarity') return null;
  const space: FaceSpace = { metric: score.name, model: faceMatch.embedding_model };
  return {
    gallery: { accountId: session.account_id, environment: session.environment, space },
    face: {
      session_id: session._id,
      identity_key: deps.knownFaces.identityKey(normalisedIdentity(person.name, person.dob)),
      embedding: decodeEmbedding(faceMatch.selfie_embedding),
    },
    threshold: score.threshold,
  };
}
