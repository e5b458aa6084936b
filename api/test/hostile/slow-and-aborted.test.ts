/**
 * Clients that hold a request open: slow headers, bodies trickled a byte at a time, uploads given
 * up half way, more uploads at once than a capture or an address may send, and an answer that
 * cannot come (an inference service that accepts and never answers). Each ends within its deadline
 * (2 s for headers, 3 s for the whole request, 5 s for the answer here), and the API keeps serving.
 */
import net from 'node:net';
import sharp from 'sharp';
import { freePort } from '../../../scripts/stack/free-port';
import { CaseLog, expectContractError, RSS_SLACK_MIB } from './support/hostile-case';
import { HostileStack } from './support/hostile-stack';
import { head, rawRequest } from './support/raw-http';

/** A deadline, plus the server's once-a-second check and some room for a loaded machine. */
const within = (deadlineMs: number) => deadlineMs + 2_000;
const trickle = (bytes: number, everyMs: number): Array<string | number> =>
  Array.from({ length: bytes }, (_, i) => [everyMs, String(i % 10)]).flat();

describe('clients that hold requests open', () => {
  let stack: HostileStack;
  let blackhole: net.Server;
  let capture: { id: string; token: string };
  let photo: Buffer;
  const log = new CaseLog('slow-and-aborted');
  beforeAll(async () => {
    // Accepts connections and never says a word: a check sent there would wait out its own deadline.
    blackhole = net.createServer(() => undefined);
    const port = await freePort();
    await new Promise<void>((resolve) => blackhole.listen(port, '127.0.0.1', resolve));
    stack = await HostileStack.start({
      INFERENCE_URL: `127.0.0.1:${port}`,
      UPLOADS_IN_FLIGHT_PER_ADDRESS: '3',
    });
    capture = await stack.capture();
    photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
  }, 60_000);
  afterAll(async () => {
    log.report();
    await stack?.stop();
    blackhole?.close();
  });
  afterEach(() => expect(stack.rssMiB()).toBeLessThan(log.baselineMiB + RSS_SLACK_MIB));

  const selfieHead = (target: { id: string; token: string }, length: number) =>
    head('PUT', `/v1/capture/${target.id}/selfie`, {
      'Content-Type': 'image/jpeg',
      'Content-Length': length,
      Authorization: `Bearer ${target.token}`,
    });

  it('closes a connection whose headers arrive a byte at a time, within the headers deadline', async () => {
    const answer = await log.run(stack, capture.id, 'slow headers (1 byte / 200 ms)', () =>
      rawRequest(stack.port, {
        pieces: ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', ...trickle(100, 200)],
        waitMs: 15_000,
      }),
    );
    expect(answer.status === null || answer.status === 408).toBe(true);
    expect(answer.ms).toBeLessThan(within(2_000));
  });

  it('cuts an authorized photo upload trickled a byte at a time, within the request deadline', async () => {
    const answer = await log.run(stack, capture.id, 'slow photo body (1 byte / 200 ms)', () =>
      rawRequest(stack.port, {
        pieces: [selfieHead(capture, 100_000), ...trickle(100, 200)],
        waitMs: 15_000,
      }),
    );
    expect(answer.status === null || answer.status === 408).toBe(true);
    expect(answer.ms).toBeLessThan(within(3_000));
  });

  it('cuts a JSON body trickled a byte at a time on a keyed route, within the request deadline', async () => {
    const json = head('POST', '/v1/sessions', {
      'Content-Type': 'application/json',
      'Content-Length': 1_000,
      'X-Api-Key': stack.account.sandbox_api_key,
    });
    const answer = await log.run(stack, capture.id, 'slow JSON body (1 byte / 200 ms)', () =>
      rawRequest(stack.port, { pieces: [json, ...trickle(100, 200)], waitMs: 15_000 }),
    );
    expect(answer.status === null || answer.status === 408).toBe(true);
    expect(answer.ms).toBeLessThan(within(3_000));
  });

  it('keeps nothing of an upload whose client goes away half way, and gives its slot back', async () => {
    const half = Buffer.alloc(100_000, 0xff);
    await log.run(stack, capture.id, 'abort mid photo upload', () =>
      rawRequest(stack.port, {
        pieces: [selfieHead(capture, 200_000), half, 50],
        abort: true,
        waitMs: 5_000,
      }),
    );
    const frames = head('POST', `/v1/capture/${capture.id}/liveness`, {
      'Content-Type': 'multipart/form-data; boundary=b',
      'Content-Length': 500_000,
      Authorization: `Bearer ${capture.token}`,
    });
    await log.run(stack, capture.id, 'abort mid frames upload', () =>
      rawRequest(stack.port, {
        pieces: [frames, '--b\r\nContent-Disposition: form-data; name="frame"; filename="f.jpg"\r\n\r\n', half, 50],
        abort: true,
        waitMs: 5_000,
      }),
    );
    // Both slots of this capture are free again: a further upload is answered on its merits, not 429.
    const next = await rawRequest(stack.port, {
      pieces: [selfieHead(capture, 10), 'not a jpeg'],
      waitMs: 5_000,
    });
    expectContractError(next, 422, 'VALIDATION_ERROR', 'body');
  });

  it('answers 429 at once to a third upload on one capture while two are still arriving', async () => {
    const holders = [0, 1].map(() =>
      rawRequest(stack.port, {
        pieces: [selfieHead(capture, 100_000), 'x', 1_000],
        abort: true,
        waitMs: 5_000,
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    const third = await log.run(stack, capture.id, 'third upload on one capture at once', () =>
      rawRequest(stack.port, { pieces: [selfieHead(capture, 100_000), 'x'], waitMs: 5_000 }),
    );
    expectContractError(third, 429, 'RATE_LIMITED');
    expect(third.headers['retry-after']).toBe('1');
    expect(third.ms).toBeLessThan(1_000);
    await Promise.all(holders);
  });

  it('answers 429 at once to a fourth upload from one address (3 allowed here) across captures', async () => {
    const others = await Promise.all([0, 1, 2, 3].map(() => stack.capture()));
    const holders = others
      .slice(0, 3)
      .map((c) => rawRequest(stack.port, { pieces: [selfieHead(c, 100_000), 'x', 1_000], abort: true, waitMs: 5_000 }));
    await new Promise((r) => setTimeout(r, 300));
    const fourth = await log.run(stack, capture.id, 'fourth upload from one address at once', () =>
      rawRequest(stack.port, { pieces: [selfieHead(others[3], 100_000), 'x'], waitMs: 5_000 }),
    );
    expectContractError(fourth, 429, 'RATE_LIMITED');
    await Promise.all(holders);
  });

  it('answers 503 within the response deadline when the check behind an upload never answers', async () => {
    const answer = await log.run(stack, capture.id, 'answer that cannot come (inference silent)', () =>
      rawRequest(stack.port, { pieces: [selfieHead(capture, photo.length), photo], waitMs: 15_000 }),
    );
    expectContractError(answer, 503, 'SERVICE_UNAVAILABLE');
    expect(answer.ms).toBeGreaterThanOrEqual(4_500);
    expect(answer.ms).toBeLessThan(within(5_000));
  }, 20_000);
});
