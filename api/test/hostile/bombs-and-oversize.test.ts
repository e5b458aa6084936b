/**
 * Small requests that would become large ones: pixel bombs (a valid file whose pixels inflate to
 * gigabytes), compressed bodies that inflate past every limit, and JSON over its limit or nested
 * past reason, on every route that takes an image and on the JSON routes. Each is refused at once
 * in the contract's error shape with nothing decoded, inflated or stored.
 */
import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { pngBomb } from '../../../inference/test/support/png-bomb';
import { CaseLog, expectContractError, RSS_SLACK_MIB } from './support/hostile-case';
import { HostileStack } from './support/hostile-stack';
import { closing, head, part, rawRequest } from './support/raw-http';

const AT_ONCE_MS = 2_000;
const BOUNDARY = 'bombboundary';

describe('bombs and oversized bodies', () => {
  let stack: HostileStack;
  let capture: { id: string; token: string };
  const log = new CaseLog('bombs-and-oversize');
  const bombs: Record<string, Buffer> = {};
  beforeAll(async () => {
    stack = await HostileStack.start();
    capture = await stack.capture();
    bombs['10-gigapixel PNG header'] = pngBomb(100_000, 100_000, 1);
    bombs['64-megapixel PNG (valid, ~64 KB)'] = pngBomb(8_000, 8_000);
  }, 60_000);
  afterAll(async () => {
    log.report();
    await stack?.stop();
  });
  afterEach(() => expect(stack.rssMiB()).toBeLessThan(log.baselineMiB + RSS_SLACK_MIB));

  const upload = (path: string, body: Buffer, headers: Record<string, string> = {}) =>
    rawRequest(stack.port, {
      pieces: [
        head('PUT', `/v1/capture/${capture.id}${path}`, {
          'Content-Type': 'image/png',
          'Content-Length': body.length,
          Authorization: `Bearer ${capture.token}`,
          ...headers,
        }),
        body,
      ],
      waitMs: 10_000,
    });

  describe.each([
    ['document front', '/document/front?type=passport'],
    ['document back', '/document/back?type=id_card'],
    ['selfie', '/selfie'],
  ])('on the %s upload', (route, path) => {
    it.each(['10-gigapixel PNG header', '64-megapixel PNG (valid, ~64 KB)'])(
      'refuses a %s with 422 naming the body, at once',
      async (bomb) => {
        const answer = await log.run(stack, capture.id, `${route}: ${bomb}`, () => upload(path, bombs[bomb]));
        expectContractError(answer, 422, 'VALIDATION_ERROR', 'body');
        expect(answer.ms).toBeLessThan(AT_ONCE_MS);
      },
    );

    it('refuses a gzip body that would inflate to 64 MiB with 415, without inflating it', async () => {
      const answer = await log.run(stack, capture.id, `${route}: gzip bomb (64 MiB in ~64 KB)`, () =>
        upload(path, gzipSync(Buffer.alloc(64 * 1024 * 1024)), { 'Content-Encoding': 'gzip' }),
      );
      expectContractError(answer, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(answer.ms).toBeLessThan(AT_ONCE_MS);
    });
  });

  describe('on the liveness upload', () => {
    const frames = (frame: Buffer, contentType: string) =>
      Buffer.concat([
        ...Array.from({ length: 8 }, () => part(BOUNDARY, 'name="frame"; filename="f.jpg"', frame, contentType)),
        part(BOUNDARY, 'name="timestamps"', JSON.stringify([0, 150, 300, 450, 600, 750, 900, 1050])),
        Buffer.from(closing(BOUNDARY)),
      ]);
    const send = (body: Buffer) =>
      rawRequest(stack.port, {
        pieces: [
          head('POST', `/v1/capture/${capture.id}/liveness`, {
            'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
            'Content-Length': body.length,
            Authorization: `Bearer ${capture.token}`,
          }),
          body,
        ],
        waitMs: 10_000,
      });

    it('refuses frames that are PNG pixel bombs with 422 naming the first frame', async () => {
      const answer = await log.run(stack, capture.id, 'liveness: 8 x 64-megapixel PNG frames', () =>
        send(frames(bombs['64-megapixel PNG (valid, ~64 KB)'], 'image/png')),
      );
      expectContractError(answer, 422, 'VALIDATION_ERROR', 'frame[0]');
      expect(answer.ms).toBeLessThan(AT_ONCE_MS);
    });

    it('refuses JPEG frames over 2 megapixels with 422 naming the first frame', async () => {
      const big = await sharp({ create: { width: 4_000, height: 3_000, channels: 3, background: '#000' } })
        .jpeg({ quality: 10 })
        .toBuffer();
      expect(big.length).toBeLessThan(1024 * 1024);
      const answer = await log.run(stack, capture.id, 'liveness: 8 x 12-megapixel JPEG frames', () =>
        send(frames(big, 'image/jpeg')),
      );
      expectContractError(answer, 422, 'VALIDATION_ERROR', 'frame[0]');
      expect(answer.ms).toBeLessThan(AT_ONCE_MS);
    });
  });

  describe('on the JSON routes', () => {
    const post = (
      body: Buffer | string,
      headers: Record<string, string | number> = {},
      bytes = Buffer.byteLength(body),
    ) =>
      rawRequest(stack.port, {
        pieces: [
          head('POST', '/v1/sessions', {
            'Content-Type': 'application/json',
            'Content-Length': bytes,
            'X-Api-Key': stack.account.sandbox_api_key,
            ...headers,
          }),
          body,
        ],
        waitMs: 10_000,
      });

    it('refuses 1 MiB of JSON with 413 at once', async () => {
      const answer = await log.run(stack, capture.id, 'JSON: 1 MiB body', () =>
        post(JSON.stringify({ metadata: { pad: 'x'.repeat(1024 * 1024) } })),
      );
      expectContractError(answer, 413, 'PAYLOAD_TOO_LARGE');
      expect(answer.ms).toBeLessThan(AT_ONCE_MS);
    });

    it('refuses a declared 1 GiB JSON body with 413 before reading it', async () => {
      const answer = await log.run(stack, capture.id, 'JSON: declared 1 GiB, never sent', () =>
        post('', {}, 1024 * 1024 * 1024),
      );
      expectContractError(answer, 413, 'PAYLOAD_TOO_LARGE');
      expect(answer.ms).toBeLessThan(AT_ONCE_MS);
    });

    it('refuses gzip JSON that inflates past the limit with 413, having inflated no more than the limit', async () => {
      const answer = await log.run(stack, capture.id, 'JSON: gzip bomb (64 MiB in ~64 KB)', () =>
        post(gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)), { 'Content-Encoding': 'gzip' }),
      );
      expectContractError(answer, 413, 'PAYLOAD_TOO_LARGE');
      expect(answer.ms).toBeLessThan(AT_ONCE_MS);
    });

    it('refuses JSON nested 10,000 deep with 422 naming the body', async () => {
      const answer = await log.run(stack, capture.id, 'JSON: nested 10,000 deep', () =>
        post(`${'['.repeat(10_000)}${']'.repeat(10_000)}`),
      );
      expectContractError(answer, 422, 'VALIDATION_ERROR', 'body');
      expect(answer.ms).toBeLessThan(AT_ONCE_MS);
    });

    it('answers 401 to oversized JSON without a key, before reading it', async () => {
      const answer = await log.run(stack, capture.id, 'JSON: declared 1 GiB, no key', () =>
        rawRequest(stack.port, {
          pieces: [
            head('POST', '/v1/sessions', {
              'Content-Type': 'application/json',
              'Content-Length': 1024 * 1024 * 1024,
            }),
          ],
          waitMs: 10_000,
        }),
      );
      expectContractError(answer, 401, 'UNAUTHORIZED');
      expect(answer.ms).toBeLessThan(AT_ONCE_MS);
    });
  });
});
