/** The Capture API (contract: "Capture API"), same origin as the page. */
export type ChallengeStep = 'TURN_LEFT' | 'TURN_RIGHT' | 'BLINK' | 'LOOK_UP' | 'LOOK_DOWN';

export interface StartAnswer {
  capture_token: string;
  challenge: ChallengeStep[];
  document_types: string[];
  expires_at: string;
  locale: string;
}
export interface DocumentAnswer { side: string; readable: boolean; reason: string | null; retake: boolean; attempts_left: number; next: 'back' | 'liveness' | null }
export interface LivenessAnswer { received: number; face_found_ratio: number; retake: boolean; attempts_left: number }
export interface SelfieAnswer { face_found: boolean; retake: boolean; reason: 'FACE_NOT_DETECTED' | 'FACE_TOO_CLOSE' | null; attempts_left: number }
export type CaptureStepState = 'missing' | 'retake' | 'captured' | 'not_required';
export interface CaptureSteps { document_front: CaptureStepState; document_back: CaptureStepState; liveness: CaptureStepState; selfie: CaptureStepState }
/** The coarse step from `/progress` (no token needed): what the desktop that handed off shows. */
export type ProgressStep = 'waiting' | 'document' | 'liveness' | 'selfie' | 'submit' | 'checking' | 'done';
export interface CaptureState { status: string; decision: 'none' | 'pending' | 'done'; redirect_url: string | null; steps?: CaptureSteps; step?: ProgressStep }

export class CaptureApiError extends Error {
  constructor(readonly status: number, readonly code: string) {
    super(`capture API answered ${status} ${code}`);
  }
}

const ATTEMPTS_WHEN_UNAVAILABLE = 3;

const tokenKey = (sessionId: string) => `bioverify:capture-token:${sessionId}`;
const typeKey = (sessionId: string) => `bioverify:document-type:${sessionId}`;

export class CaptureClient {
  private token: string | null;
  private readonly base: string;

  constructor(readonly sessionId: string, private readonly storage: Storage | null) {
    this.base = `/v1/capture/${encodeURIComponent(sessionId)}`;
    this.token = storage?.getItem(tokenKey(sessionId)) ?? null;
  }

  async start(): Promise<StartAnswer> {
    const answer = await this.call<StartAnswer>('POST', '/start');
    this.token = answer.capture_token;
    // Kept so a reload, or the camera app sending the applicant back, resumes on this device.
    this.storage?.setItem(tokenKey(this.sessionId), answer.capture_token);
    return answer;
  }

  putDocument(side: 'front' | 'back', type: string, image: Blob): Promise<DocumentAnswer> {
    return this.call('PUT', `/document/${side}?type=${encodeURIComponent(type)}`, image, image.type);
  }

  postLiveness(frames: Blob[], timestamps: number[]): Promise<LivenessAnswer> {
    const form = new FormData();
    frames.forEach((frame, i) => form.append('frame', frame, `frame-${i}.jpg`));
    form.append('timestamps', JSON.stringify(timestamps));
    return this.call('POST', '/liveness', form);
  }

  putSelfie(image: Blob): Promise<SelfieAnswer> {
    return this.call('PUT', '/selfie', image, image.type);
  }

  submit(): Promise<{ status: string; decision: string }> {
    return this.call('POST', '/submit');
  }

  /** The status; with a token still valid, also the state of each capture (to resume after a reload). */
  async state(): Promise<CaptureState> {
    try {
      return await this.call<CaptureState>('GET', '');
    } catch (error) {
      if (!(error instanceof CaptureApiError) || error.status !== 401 || !this.token) throw error;
      // Another device took the session over: this one's token is void; read the public status.
      this.token = null;
      this.storage?.removeItem(tokenKey(this.sessionId));
      return this.call<CaptureState>('GET', '');
    }
  }

  /** The document type chosen on this device, kept with the token so a resumed capture can send the back side. */
  rememberDocumentType(type: string): void {
    this.storage?.setItem(typeKey(this.sessionId), type);
  }

  rememberedDocumentType(): string | null {
    return this.storage?.getItem(typeKey(this.sessionId)) ?? null;
  }

  /** The status plus the coarse step; the same whichever device asks, so a poll can stand in for the stream. */
  progress(): Promise<CaptureState> {
    return this.call<CaptureState>('GET', '/progress');
  }

  get progressEventsUrl(): string {
    return `${this.base}/progress/events`;
  }

  private async call<T>(method: string, path: string, body?: BodyInit, contentType?: string): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (contentType) headers['Content-Type'] = contentType;
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.base}${path}`, { method, headers, body, credentials: 'omit', cache: 'no-store' });
      const json = await res.json().catch(() => ({}));
      if (res.ok) return json as T;
      // 503: the checks were briefly unavailable and nothing was stored (contract), so the same
      // upload is sent again rather than asking the applicant to redo the capture.
      if (res.status === 503 && attempt < ATTEMPTS_WHEN_UNAVAILABLE) {
        await new Promise((resolve) => setTimeout(resolve, 2000 * attempt));
        continue;
      }
      throw new CaptureApiError(res.status, json?.error?.code ?? 'UNKNOWN');
    }
  }
}
