/**
 * The Capture API (contract: "Capture API"), same origin as the page. Its types are generated
 * from the API's OpenAPI document (`npm run openapi:types`), so a change to the API that this page
 * does not follow fails to compile.
 */
import type { components, paths } from './generated/openapi-types';

type Schemas = components['schemas'];
export type StartAnswer = Schemas['CaptureStart'];
export type ChallengeStep = StartAnswer['challenge'][number];
export type DocumentType = StartAnswer['document_types'][number];
export type DocumentAnswer = Schemas['CaptureDocumentSide'];
export type LivenessAnswer = Schemas['CaptureLiveness'];
export type SelfieAnswer = Schemas['CaptureSelfie'];
export type PacedStep = Schemas['PacedStep'];
export type PacedStepDone = Schemas['PacedStepDone'];
export type CaptureSteps = NonNullable<Schemas['CaptureStatus']['steps']>;
export type CaptureStepState = CaptureSteps['liveness'];
/** The coarse step from `/progress` (no token needed): what the desktop that handed off shows. */
export type ProgressStep = Schemas['CaptureProgress']['step'];
/** What the page follows: the status (with `steps` when this device holds the token), or the progress (with `step`). */
export type CaptureState = Schemas['CaptureStatus'] & { step?: ProgressStep };

type CapturePath = Extract<keyof paths, `/v1/capture/{session_id}${string}`>;
type Method = 'get' | 'post' | 'put';
/** The JSON body the document declares for a success of `method` on `path`. */
type Success<P extends CapturePath, M extends Method> = paths[P][M] extends { responses: infer R }
  ? R extends { 200: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 201: { content: { 'application/json': infer T } } }
      ? T
      : R extends { 202: { content: { 'application/json': infer T } } }
        ? T
        : never
  : never;
type Query<P extends CapturePath, M extends Method> = paths[P][M] extends { parameters: { query: infer Q } }
  ? Q
  : undefined;

export class CaptureApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`capture API answered ${status} ${code}`);
  }
}

const ATTEMPTS_WHEN_UNAVAILABLE = 3;

const tokenKey = (sessionId: string) => `bioverify:capture-token:${sessionId}`;
const typeKey = (sessionId: string) => `bioverify:document-type:${sessionId}`;

export class CaptureClient {
  private token: string | null;
  private readonly base: string;

  constructor(
    readonly sessionId: string,
    private readonly storage: Storage | null,
  ) {
    this.base = `/v1/capture/${encodeURIComponent(sessionId)}`;
    this.token = storage?.getItem(tokenKey(sessionId)) ?? null;
  }

  async start(): Promise<StartAnswer> {
    const answer = await this.call('post', '/v1/capture/{session_id}/start');
    this.token = answer.capture_token;
    // Kept so a reload, or the camera app sending the applicant back, resumes on this device.
    this.storage?.setItem(tokenKey(this.sessionId), answer.capture_token);
    return answer;
  }

  putDocument(side: 'front' | 'back', type: DocumentType, image: Blob): Promise<DocumentAnswer> {
    const path =
      side === 'front' ? '/v1/capture/{session_id}/document/front' : '/v1/capture/{session_id}/document/back';
    return this.call('put', path, { query: { type }, body: image, contentType: image.type });
  }

  postLiveness(frames: Blob[], timestamps: number[]): Promise<LivenessAnswer> {
    const form = new FormData();
    frames.forEach((frame, i) => form.append('frame', frame, `frame-${i}.jpg`));
    form.append('timestamps', JSON.stringify(timestamps));
    return this.call('post', '/v1/capture/{session_id}/liveness', { body: form });
  }

  /** The server-paced challenge (production sessions): the next step, drawn when asked for. */
  revealStep(): Promise<PacedStep> {
    return this.call('post', '/v1/capture/{session_id}/liveness/steps');
  }

  postStepFrames(stepId: string, frames: Blob[], timestamps: number[]): Promise<Schemas['PacedChunk']> {
    const form = new FormData();
    frames.forEach((frame, i) => form.append('frame', frame, `frame-${i}.jpg`));
    form.append('timestamps', JSON.stringify(timestamps));
    return this.call('post', '/v1/capture/{session_id}/liveness/steps/{step_id}/frames', { body: form, stepId });
  }

  completeStep(stepId: string): Promise<PacedStepDone> {
    return this.call('post', '/v1/capture/{session_id}/liveness/steps/{step_id}/complete', { stepId });
  }

  /** The capture-integrity signals (docs/capture-integrity.md); the answer only says they were recorded. */
  putIntegrity(signals: Schemas['CaptureIntegrity']): Promise<Schemas['CaptureIntegrityReceipt']> {
    return this.call('put', '/v1/capture/{session_id}/integrity', {
      body: JSON.stringify(signals),
      contentType: 'application/json',
    });
  }

  putSelfie(image: Blob): Promise<SelfieAnswer> {
    return this.call('put', '/v1/capture/{session_id}/selfie', { body: image, contentType: image.type });
  }

  submit(): Promise<Schemas['CaptureSubmitted']> {
    return this.call('post', '/v1/capture/{session_id}/submit');
  }

  /** The status; with a token still valid, also the state of each capture (to resume after a reload). */
  async state(): Promise<CaptureState> {
    try {
      return await this.call('get', '/v1/capture/{session_id}');
    } catch (error) {
      if (!(error instanceof CaptureApiError) || error.status !== 401 || !this.token) throw error;
      // Another device took the session over: this one's token is void; read the public status.
      this.token = null;
      this.storage?.removeItem(tokenKey(this.sessionId));
      return this.call('get', '/v1/capture/{session_id}');
    }
  }

  /** The document type chosen on this device, kept with the token so a resumed capture can send the back side. */
  rememberDocumentType(type: DocumentType): void {
    this.storage?.setItem(typeKey(this.sessionId), type);
  }

  rememberedDocumentType(): DocumentType | null {
    // Written by rememberDocumentType on this device; the API still validates it (422 otherwise).
    return (this.storage?.getItem(typeKey(this.sessionId)) as DocumentType | null) ?? null;
  }

  /** The status plus the coarse step; the same whichever device asks, so a poll can stand in for the stream. */
  progress(): Promise<Schemas['CaptureProgress']> {
    return this.call('get', '/v1/capture/{session_id}/progress');
  }

  get progressEventsUrl(): string {
    return `${this.base}/progress/events`;
  }

  /** One call to an operation of the document: its path, query and answer are typed from it. */
  private async call<P extends CapturePath, M extends Method & keyof paths[P]>(
    method: M,
    path: P,
    options: { query?: Query<P, M>; body?: BodyInit; contentType?: string; stepId?: string } = {},
  ): Promise<Success<P, M>> {
    const headers: Record<string, string> = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (options.contentType) headers['Content-Type'] = options.contentType;
    const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
    const url = `${path
      .replace('/v1/capture/{session_id}', this.base)
      .replace('{step_id}', encodeURIComponent(options.stepId ?? ''))}${query}`;
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url, {
        method: method.toUpperCase(),
        headers,
        body: options.body,
        credentials: 'omit',
        cache: 'no-store',
      });
      const json = (await res.json().catch(() => ({}))) as unknown;
      if (res.ok) return json as Success<P, M>;
      // 503: the checks were briefly unavailable and nothing was stored (contract), so the same
      // upload is sent again rather than asking the applicant to redo the capture.
      if (res.status === 503 && attempt < ATTEMPTS_WHEN_UNAVAILABLE) {
        await new Promise((resolve) => setTimeout(resolve, 2000 * attempt));
        continue;
      }
      throw new CaptureApiError(res.status, (json as Partial<components['schemas']['Error']>).error?.code ?? 'UNKNOWN');
    }
  }
}
