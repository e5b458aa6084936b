import http from 'node:http';
import https from 'node:https';
import { AttemptOutcome, WebhookRequest, WebhookSender as WebhookSenderPort } from '../domain/ports/webhook-sender';
import { EgressRefusedError, guardedLookup, isIpLiteral, refusalFor, Resolver, systemResolver } from './egress-guard';

export type { AttemptOutcome, WebhookRequest };

export interface WebhookSenderOptions {
  timeoutMs: number;
  /** Local stacks only: skip the egress guard so receivers on loopback can be reached. */
  allowPrivateNetworks: boolean;
  resolver?: Resolver;
  /** Sockets kept open per receiver host, so a burst of deliveries does not redo TCP/TLS handshakes. */
  maxSocketsPerHost?: number;
}

const MAX_DRAINED_BYTES = 64 * 1024;

/**
 * HTTP egress for webhooks. Node's http client never follows redirects, so a 3xx is just a
 * non-2xx answer. The AbortSignal really tears the socket down at the deadline, whatever stage the
 * exchange is in; a lookup hook refuses non-public addresses at connect time.
 */
export class WebhookSender implements WebhookSenderPort {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: WebhookSenderOptions) {
    const lookup = options.allowPrivateNetworks ? undefined : guardedLookup(options.resolver ?? systemResolver);
    const agentOptions = {
      keepAlive: true,
      maxSockets: options.maxSocketsPerHost ?? 64,
      lookup,
    } as http.AgentOptions;
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
  }

  async send(request: WebhookRequest): Promise<AttemptOutcome> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      const statusCode = await this.post(request);
      return { statusCode, latencyMs: latency(), error: null };
    } catch (error) {
      return {
        statusCode: null,
        latencyMs: latency(),
        error: describe(error as NodeJS.ErrnoException, this.options.timeoutMs),
      };
    }
  }

  private post(request: WebhookRequest): Promise<number> {
    const url = new URL(request.url);
    // A literal IP never goes through `lookup`, so it is checked here, before any socket exists.
    if (!this.options.allowPrivateNetworks && isIpLiteral(url.hostname)) {
      const refusal = refusalFor(url.hostname);
      if (refusal) return Promise.reject(new EgressRefusedError(`egress refused: ${refusal}`));
    }
    const isHttps = url.protocol === 'https:';
    const body = Buffer.from(request.body, 'utf8');
    return new Promise((resolve, reject) => {
      const req = (isHttps ? https : http).request(url, {
        method: 'POST',
        agent: isHttps ? this.httpsAgent : this.httpAgent,
        headers: { ...request.headers, 'Content-Length': String(body.length) },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      req.once('error', reject);
      req.once('response', (res) => {
        resolve(res.statusCode ?? 0);
        // Drain (bounded) so the keep-alive socket can serve the next delivery.
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > MAX_DRAINED_BYTES) res.destroy();
        });
        res.on('error', () => undefined);
      });
      req.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** A short reason for the delivery log: never the URL (it may carry a token) or the body. */
function describe(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error instanceof EgressRefusedError) return error.message;
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  const code = error.code ? `${error.code}` : error.name;
  return `${code}: ${error.message}`.slice(0, 300);
}
