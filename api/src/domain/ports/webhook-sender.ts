export interface WebhookRequest {
  url: string;
  /** The exact bytes that were signed. */
  body: string;
  headers: Record<string, string>;
}

/** What one attempt came to: a status code, or the error that stopped it before one arrived. */
export interface AttemptOutcome {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/** HTTP egress for webhooks: never follows redirects, refuses non-public addresses. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<AttemptOutcome>;
}

export interface WebhookSecrets {
  /** The account's signing secret, opened; null when the account is gone. */
  webhookSecret(accountId: string): Promise<string | null>;
}
