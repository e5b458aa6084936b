import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedCopy {
  webhookId: string;
  sessionId: string;
  status: string;
  body: string;
  /** X-Bio-Signature checked as contract.md says (hex HMAC over the raw body, constant time). */
  bioSignatureValid: boolean;
  /** webhook-signature checked by the published `standardwebhooks` library, unchanged. */
  standardSignatureValid: boolean;
  /** The status this receiver answered with (null: it hung up or never answered). */
  answered: number | null;
  /** When the request had fully arrived (ms since epoch). */
  at: number;
}

/** 'hang': never answer (the sender must time out); 'drop': destroy the socket. */
export type Reply = number | 'hang' | 'drop' | { delayMs: number; status: number };

/**
 * A loopback webhook receiver that verifies both signatures on every request, as an integrator
 * would, and records every copy it saw. What it answers is programmable per copy.
 */
export class WebhookReceiver {
  readonly copies: ReceivedCopy[] = [];
  connections = 0;
  port = 0;
  reply: (copy: ReceivedCopy, nthForSession: number) => Reply = () => 200;
  private server: Server | null = null;
  private readonly standard: Webhook;

  constructor(private readonly secret: string) {
    this.standard = new Webhook(secret);
  }

  url(host = '127.0.0.1'): string {
    return `http://${host}:${this.port}/webhooks`;
  }

  async start(port = this.port): Promise<void> {
    const server = createServer((req, res) => {
      void this.handle(req).then(async (copy) => {
        const nth = this.copies.filter((c) => c.sessionId === copy.sessionId).length;
        this.copies.push(copy);
        const reply = this.reply(copy, nth);
        if (reply === 'hang') return;
        if (reply === 'drop') return req.socket.destroy();
        const { delayMs, status } = typeof reply === 'number' ? { delayMs: 0, status: reply } : reply;
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        copy.answered = status;
        res.statusCode = status;
        res.end(status < 300 ? 'ok' : 'no');
      });
    });
    server.on('connection', () => {
      this.connections += 1;
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '::', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Closes the listener and every open connection: the receiver is "down". */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage): Promise<ReceivedCopy> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const body = raw.toString('utf8');
    const header = (name: string) => String(req.headers[name] ?? '');
    const expected = createHmac('sha256', Buffer.from(this.secret, 'utf8')).update(raw).digest();
    const given = Buffer.from(header('x-bio-signature'), 'hex');
    let standardSignatureValid = true;
    try {
      this.standard.verify(body, {
        'webhook-id': header('webhook-id'),
        'webhook-timestamp': header('webhook-timestamp'),
        'webhook-signature': header('webhook-signature'),
      });
    } catch {
      standardSignatureValid = false;
    }
    let parsed: { session_id?: string; status?: string } = {};
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      // recorded with empty ids: the assertions then fail loudly
    }
    return {
      webhookId: header('webhook-id'),
      sessionId: parsed.session_id ?? '',
      status: parsed.status ?? '',
      body,
      bioSignatureValid: given.length === expected.length && timingSafeEqual(given, expected),
      standardSignatureValid,
      answered: null,
      at: Date.now(),
    };
  }

  copiesOf(sessionId: string): ReceivedCopy[] {
    return this.copies.filter((c) => c.sessionId === sessionId);
  }

  acknowledged(sessionId: string): boolean {
    return this.copiesOf(sessionId).some((c) => c.answered !== null && c.answered >= 200 && c.answered < 300);
  }
}
