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
export interface SelfieAnswer { face_found: boolean; retake: boolean; attempts_left: number }
export interface CaptureState { status: string; decision: 'none' | 'pending' | 'done'; redirect_url: string | null; steps?: Record<string, unknown> }

export class CaptureApiError extends Error {
  constructor(readonly status: number, readonly code: string) {
    super(`capture API answered ${status} ${code}`);
  }
}

const tokenKey = (sessionId: string) => `bioverify:capture-token:${sessionId}`;

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

  state(): Promise<CaptureState> {
    return this.call('GET', '');
  }

  get eventsUrl(): string {
    return `${this.base}/events`;
  }

  private async call<T>(method: string, path: string, body?: BodyInit, contentType?: string): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (contentType) headers['Content-Type'] = contentType;
    const res = await fetch(`${this.base}${path}`, { method, headers, body, credentials: 'omit', cache: 'no-store' });
    const json = await res.json().catch(() => ({}));
    if (!res.ok) throw new CaptureApiError(res.status, json?.error?.code ?? 'UNKNOWN');
    return json as T;
  }
}
