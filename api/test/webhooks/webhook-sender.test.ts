import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { publicWebhookTargetPolicy } from '../../src/data-access/public-webhook-target-policy';
import { WebhookSender } from '../../src/data-access/webhook-sender';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A loopback server on every local address (dual-stack '::') that counts TCP connections. */
async function loopbackServer(
  handler: Handler,
): Promise<{ server: Server; port: number; connections: () => number; paths: string[] }> {
  let connections = 0;
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    handler(req, res);
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections, paths };
}

const close = (server: Server) => {
  server.closeAllConnections();
  return new Promise((r) => server.close(r));
};

describe('WebhookSender (HTTP egress)', () => {
  const open = new WebhookSender({ timeoutMs: 10_000, allowPrivateNetworks: true });
  afterAll(() => open.close());

  it('posts exactly the given bytes and headers and reports the status and latency', async () => {
    let received = '';
    let contentType = '';
    const s = await loopbackServer((req, res) => {
      contentType = String(req.headers['content-type']);
      req.on('data', (c: Buffer) => (received += c.toString('utf8')));
      req.on('end', () => res.writeHead(202).end());
    });
    const body = '{"k":"é ☕","n":1.50}';
    const outcome = await open.send({
      url: `http://127.0.0.1:${s.port}/hook?x=1`,
      body,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(outcome).toMatchObject({ statusCode: 202, error: null });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
    expect(received).toBe(body);
    expect(contentType).toBe('application/json');
    await close(s.server);
  });

  it('does not follow redirects: a 3xx is the answer', async () => {
    const s = await loopbackServer((req, res) => {
      if (req.url === '/hook') res.writeHead(307, { Location: '/elsewhere' }).end();
      else res.writeHead(200).end();
    });
    const outcome = await open.send({ url: `http://127.0.0.1:${s.port}/hook`, body: '{}', headers: {} });
    expect(outcome.statusCode).toBe(307);
    expect(s.paths).toEqual(['/hook']);
    await close(s.server);
  });

  it('aborts at the timeout and really closes the socket', async () => {
    let socketClosedAt = 0;
    const s = await loopbackServer((req) => {
      req.socket.once('close', () => (socketClosedAt = Date.now()));
    });
    const quick = new WebhookSender({ timeoutMs: 300, allowPrivateNetworks: true });
    const started = Date.now();
    const outcome = await quick.send({ url: `http://127.0.0.1:${s.port}/slow`, body: '{}', headers: {} });
    expect(outcome).toMatchObject({ statusCode: null, error: 'timed out after 300 ms' });
    expect(outcome.latencyMs).toBeLessThan(2_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(socketClosedAt).toBeGreaterThan(started);
    expect(socketClosedAt - started).toBeLessThan(2_000);
    quick.close();
    await close(s.server);
  });

  describe('with the egress guard on', () => {
    const guarded = new WebhookSender({ timeoutMs: 2_000, allowPrivateNetworks: false });
    afterAll(() => guarded.close());

    it.each(['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', 'localhost'])(
      'opens no socket to http://%s (a listening loopback receiver)',
      async (host) => {
        const s = await loopbackServer((_req, res) => res.writeHead(200).end());
        const outcome = await guarded.send({ url: `http://${host}:${s.port}/hook`, body: '{}', headers: {} });
        expect(outcome.statusCode).toBeNull();
        expect(outcome.error).toMatch(/^egress refused: .*loopback/);
        expect(s.connections()).toBe(0);
        await close(s.server);
      },
    );

    it.each(['10.0.0.1', '169.254.169.254', '[fd00::1]', '100.64.0.1'])(
      'refuses http://%s before any connection attempt',
      async (host) => {
        const outcome = await guarded.send({
          url: `http://${host}/latest/meta-data`,
          body: '{}',
          headers: {},
        });
        expect(outcome.error).toMatch(/^egress refused/);
        expect(outcome.latencyMs).toBeLessThan(100);
      },
    );

    it('refuses at connect time a name that resolved to a public address at creation and to loopback now (DNS rebinding)', async () => {
      const s = await loopbackServer((_req, res) => res.writeHead(200).end());
      let lookups = 0;
      const rebinding = () =>
        Promise.resolve(
          lookups++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }],
        );
      expect(
        await publicWebhookTargetPolicy(rebinding).refuse(new URL(`http://rebind.test:${s.port}/`), 'sandbox'),
      ).toBeNull();
      const sender = new WebhookSender({
        timeoutMs: 2_000,
        allowPrivateNetworks: false,
        resolver: rebinding,
      });
      const outcome = await sender.send({
        url: `http://rebind.test:${s.port}/hook`,
        body: '{}',
        headers: {},
      });
      expect(outcome.error).toMatch(/^egress refused: 127\.0\.0\.1/);
      expect(s.connections()).toBe(0);
      sender.close();
      await close(s.server);
    });
  });
});
