import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { readFileSync } from 'node:fs';

export interface WidgetDemoOptions {
  /** The API's origin, e.g. http://localhost:8080: the widget script and the sessions come from it. */
  apiBase: string;
  /** A sandbox key, used by this server (the integrator's backend), never sent to the browser. */
  sandboxKey?: string;
  port?: number;
  host?: string;
}

export interface WidgetDemo {
  url: string;
  stop(): Promise<void>;
}

const DEMO_SCRIPT = readFileSync(path.join(__dirname, 'widget-demo.js'), 'utf8');

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The widget is given either a session made by this backend or, for a quick trial, a sandbox key to make one itself. */
type Embed = { verificationUrl: string } | { apiKey: string };

function page(embed: Embed, apiBase: string, accent: string): string {
  const data =
    'apiKey' in embed
      ? `data-api-key="${escape(embed.apiKey)}"`
      : `data-verification-url="${escape(embed.verificationUrl)}"`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Widget demo (integrator page)</title></head>
<body ${data} data-accent="${escape(accent)}">
<main style="max-width:40rem;margin:1rem auto;font-family:system-ui,sans-serif">
<h1>Example shop: verify your identity</h1>
<p>This page is on another origin than the API; it embeds the hosted flow with the widget.</p>
<div id="bioverify"></div>
<h2>Widget events</h2>
<ol id="events"></ol>
</main>
<script src="${escape(apiBase)}/widget.js"></script>
<script src="/widget-demo.js"></script>
</body></html>`;
}

/**
 * The integrator's side of a widget integration, for the local stack and the browser tests: a page
 * on its own origin whose backend creates a sandbox session and embeds it with /widget.js.
 */
export async function startWidgetDemo(options: WidgetDemoOptions): Promise<WidgetDemo> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(
    (req, res) => void handle(req, res).catch(() => send(res, 500, 'text/plain', 'demo error')),
  );
  const origin = () => `http://${host === '127.0.0.1' ? 'localhost' : host}:${(server.address() as AddressInfo).port}`;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin());
    if (url.pathname === '/widget-demo.js') return send(res, 200, 'text/javascript', DEMO_SCRIPT);
    if (url.pathname === '/done')
      return send(
        res,
        200,
        'text/html',
        `<!doctype html><title>Done</title><h1>Back at the shop</h1><p>${escape(url.search)}</p>`,
      );
    if (url.pathname === '/webhook') {
      req.resume();
      return send(res, 204, 'text/plain', '');
    }
    if (url.pathname !== '/') return send(res, 404, 'text/plain', 'not found');
    const accent = url.searchParams.get('accent') ?? '';
    // A quick trial: the browser itself creates the session with the key (sandbox keys only).
    const apiKey = url.searchParams.get('api_key');
    if (apiKey) return send(res, 200, 'text/html', page({ apiKey }, options.apiBase, accent));
    let verificationUrl = url.searchParams.get('verification_url');
    if (!verificationUrl && options.sandboxKey) verificationUrl = await createSession(url);
    if (!verificationUrl)
      return send(res, 400, 'text/plain', 'pass ?verification_url= or ?api_key=, or start the demo with a sandbox key');
    send(res, 200, 'text/html', page({ verificationUrl }, options.apiBase, accent));
  }

  async function createSession(url: URL): Promise<string> {
    const res = await fetch(`${options.apiBase}/v1/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': options.sandboxKey as string },
      body: JSON.stringify({
        return_url: `${origin()}/done`,
        webhook_url: `${origin()}/webhook`,
        expected_name: url.searchParams.get('name') ?? 'Demo Applicant',
        locale: url.searchParams.get('locale') === 'fr' ? 'fr' : 'en',
      }),
    });
    const body = (await res.json()) as { verification_url?: string };
    if (!body.verification_url) throw new Error(`session not created (${res.status})`);
    return body.verification_url;
  }

  // A port in use rejects (the stack then stops cleanly) instead of an unhandled 'error' event.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { url: origin(), stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-store' });
  res.end(body);
}
