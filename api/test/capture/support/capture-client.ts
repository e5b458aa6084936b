import { assertMatchesDocument } from '../../../../scripts/test-support/openapi-conformance';

/**
 * The capture API as a device uses it, over HTTP (what the hosted page and the widget do).
 */
export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T & {
    error?: { code: string; message: string; details?: Array<{ field: string; message: string }> };
  };
}

export class CaptureClient {
  token: string | null = null;

  constructor(
    readonly baseUrl: string,
    readonly sessionId: string,
  ) {}

  private async call<T>(
    method: string,
    path: string,
    body?: BodyInit,
    contentType?: string,
    token = this.token,
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = {};
    if (contentType) headers['content-type'] = contentType;
    if (token) headers.authorization = `Bearer ${token}`;
    const url = `${this.baseUrl}/v1/capture/${this.sessionId}${path}`;
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    const json: unknown = text ? JSON.parse(text) : {};
    // Every answer is checked against the OpenAPI document (operation, status, schema).
    assertMatchesDocument({
      method,
      url,
      status: res.status,
      contentType: res.headers.get('content-type'),
      json,
    });
    // Checked against the document above, so the body is the schema the caller names.
    return { status: res.status, body: json as Answer<T>['body'] };
  }

  async start(token: string | null = null): Promise<
    Answer<{
      capture_token: string;
      challenge: string[];
      document_types: string[];
      expires_at: string;
      locale: string;
      liveness_mode: string;
    }>
  > {
    const answer = await this.call<{
      capture_token: string;
      challenge: string[];
      document_types: string[];
      expires_at: string;
      locale: string;
      liveness_mode: string;
    }>('POST', '/start', undefined, undefined, token);
    if (answer.status === 200) this.token = answer.body.capture_token;
    return answer;
  }

  document(side: 'front' | 'back', type: string, image: Buffer, contentType = 'image/jpeg') {
    return this.call<{
      side: string;
      readable: boolean;
      reason: string | null;
      retake: boolean;
      attempts_left: number;
      next: string | null;
    }>('PUT', `/document/${side}?type=${type}`, new Uint8Array(image), contentType);
  }

  /** The active-authentication challenge the chip must sign. */
  chipChallenge() {
    return this.call<{ challenge: string; expires_at: string }>('POST', '/chip/challenge');
  }

  /** The chip files as read (base64 of each EF), and optionally the chip's answer to the challenge. */
  chip(body: Record<string, unknown>) {
    return this.call<{ well_formed: boolean; received: string[] }>(
      'PUT',
      '/document/chip',
      JSON.stringify(body),
      'application/json',
    );
  }

  liveness(frames: Buffer[], timestamps: unknown = frames.map((_, i) => i * 150)) {
    const form = new FormData();
    for (const frame of frames)
      form.append('frame', new Blob([new Uint8Array(frame)], { type: 'image/jpeg' }), 'frame.jpg');
    form.append('timestamps', JSON.stringify(timestamps));
    return this.call<{ received: number; face_found_ratio: number; retake: boolean; attempts_left: number }>(
      'POST',
      '/liveness',
      form,
    );
  }

  /** The paced challenge: reveal the next step. */
  revealStep() {
    return this.call<Record<string, unknown>>('POST', '/liveness/steps');
  }

  pacedFrames(stepId: string, frames: Buffer[], timestamps: unknown) {
    const form = new FormData();
    for (const frame of frames)
      form.append('frame', new Blob([new Uint8Array(frame)], { type: 'image/jpeg' }), 'frame.jpg');
    form.append('timestamps', JSON.stringify(timestamps));
    return this.call<{ step_id: string; received: number; frames_total: number; deadline_ms: number }>(
      'POST',
      `/liveness/steps/${stepId}/frames`,
      form,
    );
  }

  completeStep(stepId: string) {
    return this.call<{
      step_id: string;
      frames_total: number;
      face_found_ratio: number;
      next: string;
      attempts_left: number;
    }>('POST', `/liveness/steps/${stepId}/complete`);
  }

  /** The capture-integrity signals, as JSON (docs/capture-integrity.md). */
  integrity(signals: unknown, token = this.token) {
    return this.call<{ recorded: true }>('PUT', '/integrity', JSON.stringify(signals), 'application/json', token);
  }

  selfie(image: Buffer, contentType = 'image/jpeg') {
    return this.call<{ face_found: boolean; retake: boolean; attempts_left: number }>(
      'PUT',
      '/selfie',
      new Uint8Array(image),
      contentType,
    );
  }

  submit() {
    return this.call<{ status: string; decision: string }>('POST', '/submit');
  }

  status(token: string | null = this.token) {
    return this.call<{
      status: string;
      decision: string;
      redirect_url: string | null;
      steps?: Record<string, string>;
    }>('GET', '', undefined, undefined, token);
  }

  /** Polls the status until the decision is done (or the limit passes). */
  async decided(timeoutMs = 60_000): Promise<{ status: string; decision: string; redirect_url: string | null }> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await this.status(null);
      if (body.decision === 'done' || Date.now() > until) return body;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
