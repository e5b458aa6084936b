import { readFileSync } from 'node:fs';
import type { Scene } from './camera-files';

/**
 * A phone reduced to what it sends: a plain HTTP client of the capture API, for the tests where
 * another device (the desktop page) is the one under test.
 */
export class HttpPhone {
  private token = '';
  private readonly base: string;

  constructor(apiBase: string, sessionId: string) {
    this.base = `${apiBase}/v1/capture/${sessionId}`;
  }

  private async call(method: string, path: string, body?: BodyInit, type?: string): Promise<any> {
    const headers: Record<string, string> = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (type) headers['Content-Type'] = type;
    const res = await fetch(`${this.base}${path}`, { method, headers, body });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  async start(): Promise<void> {
    this.token = (await this.call('POST', '/start')).capture_token;
  }

  document(side: 'front' | 'back', type: string, file: string): Promise<any> {
    return this.call('PUT', `/document/${side}?type=${type}`, readFileSync(file), 'image/jpeg');
  }

  /** The scene sampled at 6 frames a second, as the hosted page records it. */
  liveness(scene: Scene): Promise<any> {
    const form = new FormData();
    const timestamps: number[] = [];
    let at = 0;
    for (const shot of scene) {
      for (let t = 0; t < shot.seconds && timestamps.length < 60; t += 1 / 6) {
        form.append('frame', new Blob([readFileSync(shot.image)], { type: 'image/jpeg' }), `f${timestamps.length}.jpg`);
        timestamps.push(Math.round((at + t) * 1000));
      }
      at += shot.seconds;
    }
    form.append('timestamps', JSON.stringify(timestamps));
    return this.call('POST', '/liveness', form);
  }

  selfie(file: string): Promise<any> {
    return this.call('PUT', '/selfie', readFileSync(file), 'image/jpeg');
  }

  submit(): Promise<any> {
    return this.call('POST', '/submit');
  }
}
