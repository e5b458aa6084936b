import { Request } from 'express';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { AppError } from '../../../shared/app-error';

const INFLATERS: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

export interface BodyLimits {
  /** Bytes after any inflating: a compressed body is held to what it becomes. */
  maxBytes: number;
  /** Whether a Content-Encoding is accepted (and inflated) or refused with 415. */
  inflate: boolean;
}

const tooLarge = (maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than this endpoint accepts (${maxBytes} bytes).`);

/**
 * Reads a request body into memory, settling exactly once on every path: a declared length over
 * the limit is refused before a byte is read, a body that passes the limit while arriving (or while
 * inflating) is refused at that byte, a corrupt compressed body is a 422, and a client that goes
 * away rejects so nothing waits on it. Reading then stops; the error middleware drains the rest.
 * Unlike body-parser, which reads a refused body to its end before answering, nothing here waits
 * on the client.
 */
export function readBody(req: Request, limits: BodyLimits): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const encoding = (req.header('content-encoding') ?? 'identity').trim().toLowerCase();
    const makeInflater = INFLATERS[encoding];
    if (encoding !== 'identity' && (!limits.inflate || !makeInflater)) {
      return reject(new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding ${encoding} is not accepted here.`));
    }
    const declared = Number(req.header('content-length') ?? NaN);
    if (encoding === 'identity' && declared > limits.maxBytes) return reject(tooLarge(limits.maxBytes));
    const inflater = makeInflater?.();
    const source: Readable = inflater ? req.pipe(inflater) : req;
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (error: AppError | null) => {
      if (settled) return;
      settled = true;
      source.removeListener('data', onData);
      if (inflater) {
        req.unpipe(inflater);
        inflater.destroy();
      }
      if (error) {
        chunks.length = 0;
        req.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBytes) return settle(tooLarge(limits.maxBytes));
      chunks.push(chunk);
    };
    source.on('data', onData);
    source.once('end', () => settle(null));
    inflater?.once('error', () =>
      settle(
        new AppError('VALIDATION_ERROR', 'The compressed body could not be inflated.', [
          { field: 'body', message: `not valid ${encoding}` },
        ]),
      ),
    );
    req.once('error', () => settle(incomplete()));
    req.once('close', () => {
      if (!req.complete) settle(incomplete());
    });
  });
}

const incomplete = () =>
  new AppError('VALIDATION_ERROR', 'The request body could not be read.', [
    { field: 'body', message: 'incomplete body' },
  ]);
