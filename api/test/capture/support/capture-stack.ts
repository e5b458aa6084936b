import path from 'node:path';
import { waitFor } from '../../../../scripts/stack/child-process';
import { freePort } from '../../../../scripts/stack/free-port';
import { InferenceService, startInferenceService } from '../../../../scripts/test-support/inference-service';
import { countCaptureBlobs } from '../../../src/data-access/capture-blob.repository';
import { WebhookStack } from '../../webhooks/support/webhook-stack';
import { createSession } from '../../../../scripts/test-support/sessions-api';

const MODELS = path.resolve(__dirname, '../../../../models');

/**
 * The whole real stack a capture needs: the suite's FerretDB and Redis, the inference service on
 * the real models (in this process, on a fixed port so it can be stopped and started again at the
 * same address), the API, a worker process, and a verifying webhook receiver.
 */
export class CaptureStack {
  inference: InferenceService | null = null;

  private constructor(
    readonly stack: WebhookStack,
    readonly inferencePort: number,
  ) {}

  static async start(overrides: Record<string, string> = {}): Promise<CaptureStack> {
    const inferencePort = await freePort();
    const stack = await WebhookStack.start({
      INFERENCE_URL: `127.0.0.1:${inferencePort}`,
      DECISION_RETRY_BASE_MS: '300',
      CAPTURE_EVENTS_POLL_MS: '200',
      WATCHLIST_REFRESH_SECONDS: '0',
      ...overrides,
    });
    const capture = new CaptureStack(stack, inferencePort);
    await capture.startInference();
    await stack.startApi();
    await stack.startWorker();
    return capture;
  }

  async startInference(): Promise<void> {
    this.inference = await startInferenceService(MODELS, { port: this.inferencePort });
  }

  /** Starts the inference service again if a test stopped it, so one failure does not fail the next tests. */
  async ensureInference(): Promise<void> {
    if (!this.inference) await this.startInference();
  }

  /**
   * Waits until the API's /readyz answers 200, its inference probe included: the probe shares the
   * checks' gRPC connection, so after a restart of the service the next upload is checked, not
   * answered 503 while the API's channel waits out its reconnect backoff.
   */
  async awaitApiReady(withinMs = 30_000): Promise<void> {
    await waitFor('the API (/readyz)', async () => (await fetch(`${this.baseUrl}/readyz`)).ok, withinMs);
  }

  async stopInference(): Promise<void> {
    await this.inference?.stop();
    this.inference = null;
  }

  get baseUrl(): string {
    return this.stack.baseUrl;
  }

  get apiKey(): string {
    return this.stack.account.sandbox_api_key;
  }

  /** A sandbox session with the liveness challenge pinned, so prerecorded frames can perform it. */
  async session(body: Record<string, unknown>, apiKey = this.apiKey): Promise<string> {
    const res = await fetch(`${this.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({
        return_url: 'https://example.com/done',
        webhook_url: this.stack.receiver.url(),
        expected_name: 'Nobody',
        ...body,
      }),
    });
    const json = (await res.json()) as { session_id: string; error?: unknown };
    if (res.status !== 201) throw new Error(`session creation answered ${res.status}: ${JSON.stringify(json)}`);
    return json.session_id;
  }

  /** `Body` names the response schema (see api-bodies.ts); unnamed, the body is `unknown`. */
  async api<Body = unknown>(
    method: string,
    pathname: string,
    apiKey = this.apiKey,
  ): Promise<{ status: number; body: Body }> {
    const res = await fetch(`${this.baseUrl}${pathname}`, { method, headers: { 'x-api-key': apiKey } });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Body };
  }

  blobs(): Promise<number> {
    return countCaptureBlobs(this.stack.store);
  }

  async stop(): Promise<void> {
    await this.stack.stop();
    await this.stopInference();
  }
}

export { createSession };
