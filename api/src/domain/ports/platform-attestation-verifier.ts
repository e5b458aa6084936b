import type { IntegrityClient } from '../capture/capture-integrity';

/**
 * The seam for platform attestation, deliberately not implemented. The native SDKs' device and
 * camera facts are the app's own claims; a Play Integrity verdict (Android) or an App Attest
 * assertion (iOS) bound to the session's id would back them, but checking either needs Google's or
 * Apple's servers, which this project can neither reach nor test against. A verifier plugs in here,
 * the upload grows an `attestation` member, and the report says which claims were attested
 * (docs/capture-integrity.md, "Platform attestation").
 */
export interface PlatformAttestationVerifier {
  verify(input: {
    client: Exclude<IntegrityClient, 'web'>;
    /** The token the app obtained with the session id as its nonce (request hash, client data hash). */
    token: string;
    sessionId: string;
    appId: string;
  }): Promise<{ attested: boolean; reason: string | null }>;
}
