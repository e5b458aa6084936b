import path from 'node:path';
import { startProcess, waitFor, ManagedProcess } from '../../../scripts/stack/child-process';
import { freePort } from '../../../scripts/stack/free-port';
import { WebhookStack } from '../../../api/test/webhooks/support/webhook-stack';

const ROOT = path.resolve(__dirname, '../../..');

/**
 * The real stack behind the browser: the suite's FerretDB and Redis (a database of this file's own),
 * the inference service on the real models and a worker as their own processes, the API in this
 * process on a known port (its PUBLIC_BASE_URL must be the address the browser opens).
 */
export class BrowserStack {
  private constructor(readonly stack: WebhookStack, readonly baseUrl: string, private readonly inference: ManagedProcess) {}

  static async start(): Promise<BrowserStack> {
    const inferencePort = await freePort();
    const inferenceEnv = { ...process.env, INFERENCE_PORT: String(inferencePort), INFERENCE_HOST: '127.0.0.1', INFERENCE_METRICS_PORT: String(await freePort()), MODEL_REPOSITORY: path.join(ROOT, 'models') };
    const inference = startProcess('inference', process.execPath, ['--import', 'tsx', path.join(ROOT, 'inference/src/main.ts')], {
      env: inferenceEnv,
      cwd: ROOT,
      logFile: path.join(ROOT, '.state', 'hosted-tests', `inference-${inferencePort}.log`),
    });
    const apiPort = await freePort();
    const baseUrl = `http://127.0.0.1:${apiPort}`;
    const stack = await WebhookStack.start({ INFERENCE_URL: `127.0.0.1:${inferencePort}`, PUBLIC_BASE_URL: baseUrl });
    await stack.startApi({ PORT: String(apiPort) });
    await waitFor('inference (via /readyz)', async () => (await fetch(`${baseUrl}/readyz`)).ok, 120_000, inference.child);
    await stack.startWorker();
    return new BrowserStack(stack, baseUrl, inference);
  }

  get apiKey(): string {
    return this.stack.account.sandbox_api_key;
  }

  async createSession(body: Record<string, unknown>): Promise<{ session_id: string; verification_url: string }> {
    const res = await fetch(`${this.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': this.apiKey },
      body: JSON.stringify({ webhook_url: this.stack.receiver.url(), ...body }),
    });
    const json = await res.json();
    if (res.status !== 201) throw new Error(`session not created: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  async result(sessionId: string): Promise<Record<string, any>> {
    const res = await fetch(`${this.baseUrl}/v1/sessions/${sessionId}/result`, { headers: { 'X-Api-Key': this.apiKey } });
    return res.json();
  }

  async stop(): Promise<void> {
    await this.stack.stop();
    await this.inference.stop();
  }
}
