import busboy from 'busboy';
import { NextFunction, Request, Response } from 'express';
import { AppError } from '../../../shared/app-error';
import { FRAME_LIMITS } from '../../../shared/image-probe';

export const FRAME_MAX_BYTES = FRAME_LIMITS.maxBytes;
/** One more than the contract's 60, so a 61st frame is seen and refused rather than silently dropped. */
const FILE_LIMIT = 61;
const TIMESTAMPS_MAX_BYTES = 64 * 1024;

export interface FramesUpload {
  frames: Buffer[];
  timestamps: unknown;
}

const malformed = (message: string) =>
  new AppError('VALIDATION_ERROR', 'The multipart body is malformed.', [{ field: 'body', message }]);
const unknownPart = (field: string) =>
  new AppError('VALIDATION_ERROR', 'Unknown part.', [
    { field, message: 'only `frame` parts and one `timestamps` field are accepted' },
  ]);

/**
 * multipart/form-data with `frame` parts (in capture order) and one `timestamps` field. Every path
 * ends the request exactly once: the first problem (a malformed or truncated body, a part over its
 * limit, too many parts, an unknown or unnamed part) answers at once and stops reading, so nothing
 * oversize is buffered and no request waits on a parser that has given up; a client that goes
 * away leaves nothing behind. Runs after the upload gate has checked the capture token.
 */
export function multipartFrames(req: Request, res: Response, next: NextFunction): void {
  if (!req.is('multipart/form-data')) {
    next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the frames as multipart/form-data.'));
    return;
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: {
        files: FILE_LIMIT,
        fileSize: FRAME_MAX_BYTES,
        fields: 1,
        fieldSize: TIMESTAMPS_MAX_BYTES,
        parts: FILE_LIMIT + 1,
        headerPairs: 8,
      },
    });
  } catch {
    next(malformed('no multipart boundary'));
    return;
  }
  const frames: Buffer[] = [];
  let timestampsText: string | null = null;
  let parts = 0;
  let settled = false;
  const stop = () => {
    settled = true;
    req.unpipe(parser);
    frames.length = 0;
  };
  const fail = (error: AppError) => {
    if (settled) return;
    stop();
    next(error);
  };
  // Errors after the answer (the rest of a refused body) have no one to go to, but must not go unheard.
  parser.on('error', (error: Error) =>
    fail(
      malformed(
        error.message === 'Unexpected end of form' ? 'ends before its closing boundary' : 'could not be parsed',
      ),
    ),
  );
  parser.on('file', (name, stream) => {
    const index = parts++;
    stream.on('error', () => fail(malformed('ends inside a frame')));
    if (name !== 'frame') {
      stream.resume();
      return fail(unknownPart(name ? name : `part[${index}]`));
    }
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => {
      if (!settled) chunks.push(chunk);
    });
    stream.on('limit', () =>
      fail(
        new AppError('PAYLOAD_TOO_LARGE', `Each frame may be at most ${FRAME_MAX_BYTES} bytes.`, [
          { field: `frame[${frames.length}]`, message: 'too large' },
        ]),
      ),
    );
    stream.on('end', () => {
      if (!settled) frames.push(Buffer.concat(chunks));
    });
  });
  parser.on('field', (name, value, info) => {
    const index = parts++;
    if (name !== 'timestamps') return fail(unknownPart(name ? name : `part[${index}]`));
    if (info.valueTruncated)
      return fail(
        new AppError('PAYLOAD_TOO_LARGE', 'The timestamps field is too large.', [
          { field: 'timestamps', message: `at most ${TIMESTAMPS_MAX_BYTES} bytes` },
        ]),
      );
    timestampsText = value;
  });
  parser.on('fieldsLimit', () =>
    fail(
      new AppError('VALIDATION_ERROR', 'The timestamps were sent more than once.', [
        { field: 'timestamps', message: 'send exactly one `timestamps` field' },
      ]),
    ),
  );
  parser.on('filesLimit', () =>
    fail(new AppError('VALIDATION_ERROR', 'Too many frames.', [{ field: 'frame', message: 'send at most 60 frames' }])),
  );
  parser.on('partsLimit', () =>
    fail(
      new AppError('VALIDATION_ERROR', 'Too many parts.', [
        { field: 'body', message: `at most ${FILE_LIMIT + 1} parts: the frames and one timestamps field` },
      ]),
    ),
  );
  parser.on('close', () => {
    if (settled) return;
    settled = true;
    let timestamps: unknown = null;
    try {
      timestamps = timestampsText === null ? null : JSON.parse(timestampsText);
    } catch {
      return next(
        new AppError('VALIDATION_ERROR', 'The timestamps are not JSON.', [
          { field: 'timestamps', message: 'must be a JSON array' },
        ]),
      );
    }
    const upload: FramesUpload = { frames, timestamps };
    res.locals.frames = upload;
    next();
  });
  // The client went away mid-body: nothing to answer, and nothing may be kept.
  req.once('close', () => {
    if (!req.complete && !settled) stop();
  });
  req.pipe(parser);
}
