/**
 * Malformed multipart bodies on the liveness upload, sent byte for byte over a raw socket: each is
 * refused at once in the contract's error shape, the API stays up and serving, nothing is stored,
 * and its memory stays near where it began.
 */
import { CaseLog, expectContractError, RSS_SLACK_MIB } from './support/hostile-case';
import { HostileStack } from './support/hostile-stack';
import { closing, head, part, rawRequest } from './support/raw-http';

const BOUNDARY = 'hostileboundary';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const AT_ONCE_MS = 2_000;

describe('malformed multipart on the liveness upload', () => {
  let stack: HostileStack;
  let capture: { id: string; token: string };
  const log = new CaseLog('malformed-multipart');
  beforeAll(async () => {
    stack = await HostileStack.start();
    capture = await stack.capture();
  }, 60_000);
  afterAll(async () => {
    log.report();
    await stack?.stop();
  });
  afterEach(() => expect(stack.rssMiB()).toBeLessThan(log.baselineMiB + RSS_SLACK_MIB));

  const liveness = (
    body: Buffer | string,
    options: {
      token?: string | null;
      contentType?: string;
      length?: number;
      extra?: Record<string, string>;
    } = {},
  ) => {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1');
    const token = options.token === undefined ? capture.token : options.token;
    return head('POST', `/v1/capture/${capture.id}/liveness`, {
      'Content-Type': options.contentType ?? MULTIPART,
      'Content-Length': options.length ?? bytes.length,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...options.extra,
    });
  };
  const send = (
    name: string,
    body: Buffer | string,
    options: Parameters<typeof liveness>[1] & { end?: boolean; waitMs?: number } = {},
  ) =>
    log.run(stack, capture.id, name, () =>
      rawRequest(stack.port, {
        pieces: [liveness(body, options), body],
        end: options.end,
        waitMs: options.waitMs ?? 10_000,
      }),
    );

  it('answers 401 at once to a part header with a control character sent without a capture token, before reading the body', async () => {
    const body = Buffer.concat([part(BOUNDARY, 'name="\x1f"', 'x'), Buffer.from(closing(BOUNDARY))]);
    const answer = await send('control character, no token', body, { token: null });
    expectContractError(answer, 401, 'UNAUTHORIZED');
    expect(answer.ms).toBeLessThan(AT_ONCE_MS);
  });

  it('answers 422 naming the body at once to a part header with a control character', async () => {
    const body = Buffer.concat([
      part(BOUNDARY, 'name="\x1f"; filename="f.jpg"', 'x', 'image/jpeg'),
      Buffer.from(closing(BOUNDARY)),
    ]);
    const answer = await send('control character in a part header', body);
    expectContractError(answer, 422, 'VALIDATION_ERROR', 'body');
    expect(answer.ms).toBeLessThan(AT_ONCE_MS);
  });

  it('answers 422 at once to a body that ends before its closing boundary, and stays up', async () => {
    const body = Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="frame"; filename="f.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      Buffer.from('\xff\xd8\xff', 'latin1'),
    ]);
    const answer = await send('truncated body', body);
    expectContractError(answer, 422, 'VALIDATION_ERROR', 'body');
    expect(answer.ms).toBeLessThan(AT_ONCE_MS);
  });

  it('answers 401 at once to the truncated body without a token', async () => {
    const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="frame"; filename="f.jpg"\r\n\r\nabc`;
    const answer = await send('truncated body, no token', body, { token: null });
    expectContractError(answer, 401, 'UNAUTHORIZED');
  });

  it('answers 401 to a wrong capture token before reading any body', async () => {
    const answer = await send('wrong token, body never sent', '', {
      token: 'not-the-token',
      length: 50 * 1024 * 1024,
    });
    expectContractError(answer, 401, 'UNAUTHORIZED');
    expect(answer.ms).toBeLessThan(AT_ONCE_MS);
  });

  it('answers 422 naming the body to multipart without a boundary', async () => {
    const answer = await send('no boundary', part(BOUNDARY, 'name="timestamps"', '[]'), {
      contentType: 'multipart/form-data',
    });
    expectContractError(answer, 422, 'VALIDATION_ERROR', 'body');
  });

  it('cuts an unterminated part whose client goes quiet, within the request deadline', async () => {
    const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="frame"; filename="f.jpg"\r\n\r\nabc`;
    const answer = await send('unterminated part, client silent', body, { length: 100_000 });
    // The request deadline (3 s here) plus the server's once-a-second check.
    expect(answer.ms).toBeLessThan(5_000);
    expect(answer.status === null || answer.status === 408).toBe(true);
  });

  it('refuses 10,000 empty parts at once with 422 naming the parts', async () => {
    const body = Buffer.from(
      `${`--${BOUNDARY}\r\nContent-Disposition: form-data; name="frame"; filename="f.jpg"\r\n\r\n\r\n`.repeat(10_000)}${closing(BOUNDARY)}`,
    );
    const answer = await send('10,000 empty parts', body);
    expectContractError(answer, 422, 'VALIDATION_ERROR', 'frame');
    expect(answer.ms).toBeLessThan(AT_ONCE_MS);
  });

  it('refuses a duplicate timestamps field with 422 naming timestamps', async () => {
    const body = Buffer.concat([
      part(BOUNDARY, 'name="timestamps"', '[0]'),
      part(BOUNDARY, 'name="timestamps"', '[1]'),
      Buffer.from(closing(BOUNDARY)),
    ]);
    const answer = await send('duplicate timestamps', body);
    expectContractError(answer, 422, 'VALIDATION_ERROR', 'timestamps');
  });

  it('refuses a part with an empty name with 422 naming the part by its place', async () => {
    const body = Buffer.concat([part(BOUNDARY, 'name=""', 'x'), Buffer.from(closing(BOUNDARY))]);
    const answer = await send('part with an empty name', body);
    expectContractError(answer, 422, 'VALIDATION_ERROR', 'part[0]');
  });

  it('refuses a compressed multipart body with 415 rather than parse or inflate it', async () => {
    const answer = await send('gzip-encoded multipart', Buffer.alloc(64, 1), {
      extra: { 'Content-Encoding': 'gzip' },
    });
    expectContractError(answer, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('holds no connection open after twenty control-character requests at once', async () => {
    const body = Buffer.concat([
      part(BOUNDARY, 'name="\x1f"; filename="f.jpg"', 'x', 'image/jpeg'),
      Buffer.from(closing(BOUNDARY)),
    ]);
    const started = Date.now();
    const answers = await log.run(stack, capture.id, 'twenty control-character requests at once', async () => {
      const all = await Promise.all(
        Array.from({ length: 20 }, () => rawRequest(stack.port, { pieces: [liveness(body), body], waitMs: 10_000 })),
      );
      return {
        ...all[0],
        ms: Date.now() - started,
        status: all.every((a) => a.status === all[0].status) ? all[0].status : null,
      };
    });
    expect(answers.status).toBe(422);
    expect(answers.ms).toBeLessThan(AT_ONCE_MS * 2);
  });
});
