/**
 * The liveness capture's quality gate, shared by the one-shot upload and the paced steps: when
 * fewer frames than this share show exactly one face, the applicant is asked to go again.
 */
export const FACE_FOUND_LINE = 0.8;
