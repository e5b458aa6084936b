import busboy from 'busboy';
import { NextFunction, Request, Response } from 'express';
import { AppError } from '../../../shared/app-error';

export const FRAME_MAX_BYTES = 1024 * 1024;
/** One more than the contract's 60, so a 61st frame is seen and refused rather than silently dropped. */
const FILE_LIMIT = 61;

export interface FramesUpload {
  frames: Buffer[];
  timestamps: unknown;
}

/**
 * multipart/form-data with `frame` parts (in capture order) and a `timestamps` field. Limits are
 * enforced while streaming: a frame over 1 MiB is a 413 the moment it passes the limit, too many
 * frames a 422, so nothing oversize is ever buffered whole.
 */
export function multipartFrames(req: Request, res: Response, next: NextFunction): void {
  if (!req.is('multipart/form-data')) {
    next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the frames as multipart/form-data.'));
    return;
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: FILE_LIMIT, fileSize: FRAME_MAX_BYTES, fields: 4, fieldSize: 64 * 1024, parts: FILE_LIMIT + 4 } });
  } catch {
    next(new AppError('VALIDATION_ERROR', 'The multipart body is malformed.', [{ field: 'body', message: 'no multipart boundary' }]));
    return;
  }
  const frames: Buffer[] = [];
  let timestampsText: string | null = null;
  let failure: AppError | null = null;
  const fail = (error: AppError) => {
    failure ??= error;
  };
  parser.on('file', (name, stream) => {
    if (name !== 'frame') fail(new AppError('VALIDATION_ERROR', 'Unknown part.', [{ field: name, message: 'only `frame` parts and a `timestamps` field are accepted' }]));
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => fail(new AppError('PAYLOAD_TOO_LARGE', `Each frame may be at most ${FRAME_MAX_BYTES} bytes.`, [{ field: `frame[${frames.length}]`, message: 'too large' }])));
    stream.on('end', () => frames.push(Buffer.concat(chunks)));
  });
  parser.on('field', (name, value) => {
    if (name === 'timestamps') timestampsText = value;
    else fail(new AppError('VALIDATION_ERROR', 'Unknown field.', [{ field: name, message: 'only `frame` parts and a `timestamps` field are accepted' }]));
  });
  parser.on('filesLimit', () => fail(new AppError('VALIDATION_ERROR', 'Too many frames.', [{ field: 'frame', message: 'send at most 60 frames' }])));
  parser.on('error', () => fail(new AppError('VALIDATION_ERROR', 'The multipart body is malformed.', [{ field: 'body', message: 'could not be parsed' }])));
  parser.on('close', () => {
    if (failure) return next(failure);
    let timestamps: unknown = null;
    try {
      timestamps = timestampsText === null ? null : JSON.parse(timestampsText);
    } catch {
      return next(new AppError('VALIDATION_ERROR', 'The timestamps are not JSON.', [{ field: 'timestamps', message: 'must be a JSON array' }]));
    }
    const upload: FramesUpload = { frames, timestamps };
    res.locals.frames = upload;
    next();
  });
  req.pipe(parser);
}
