/**
 * Sealing at rest as its users see it: `where` names the place a value is stored (`<record>|<field>`)
 * and is bound in, so a value copied elsewhere fails to open instead of passing for another's.
 */
export interface TextSealer {
  seal(where: string, plaintext: string): Promise<string>;
  open(where: string, stored: string): Promise<string>;
}

/** Where a capture's document read is sealed: its session, so a read cannot be replayed onto another session. */
export const documentReadWhere = (sessionId: string): string => `${sessionId}|document_read`;

/** Where the selfie's face descriptor is sealed between upload and decision: its session. */
export const selfieEmbeddingWhere = (sessionId: string): string => `${sessionId}|selfie_embedding`;

/** Where an account's webhook secret is sealed: its account, so a sealed secret copied to another account fails to open. */
export const webhookSecretWhere = (accountId: string): string => `${accountId}|webhook_secret`;
