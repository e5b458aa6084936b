import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';

export interface Probe {
  name: string;
  check: () => Promise<void>;
}

/**
 * The worker serves no API, but an orchestrator still needs /healthz (alive) and /readyz (store
 * reachable, Redis reachable with maxmemory-policy noeviction, consuming and not shutting down),
 * and /metrics for Prometheus.
 */
export async function startHealthServer(
  port: number,
  probes: Probe[],
  isConsuming: () => boolean,
  metrics?: Registry,
): Promise<{ server: Server; port: number }> {
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/metrics' && metrics) {
      res.setHeader('Content-Type', metrics.contentType);
      res.end(await metrics.metrics().catch((error: Error) => `# metrics unavailable: ${error.message}\n`));
      return;
    }
    res.setHeader('Content-Type', 'application/json');
    if (req.url === '/healthz') {
      res.end(JSON.stringify({ status: 'ok' }));
      return;
    }
    if (req.url !== '/readyz') {
      res.statusCode = 404;
      res.end(JSON.stringify({ status: 'not_found' }));
      return;
    }
    const checks: Record<string, { ok: boolean; error?: string }> = {};
    for (const probe of probes) {
      checks[probe.name] = await probe.check().then(
        () => ({ ok: true }),
        (error: Error) => ({ ok: false, error: error.message }),
      );
    }
    checks.workers = { ok: isConsuming() };
    const ready = Object.values(checks).every((c) => c.ok);
    res.statusCode = ready ? 200 : 503;
    res.end(JSON.stringify({ status: ready ? 'ready' : 'not_ready', checks }));
  };
  const server = createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
