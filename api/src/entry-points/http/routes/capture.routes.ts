import { Request, Router } from 'express';
import { AppContext } from '../../../app-context';
import { DocumentType } from '../../../domain/session-status';
import { captureProgress } from '../../../domain/usecases/capture/capture-progress.usecase';
import { captureStatus, statusOf } from '../../../domain/usecases/capture/capture-status.usecase';
import { sessionForCapture } from '../../../domain/usecases/capture/capture-access';
import { DOCUMENT_TYPES, startCapture } from '../../../domain/usecases/capture/start-capture.usecase';
import { submitCapture } from '../../../domain/usecases/capture/submit-capture.usecase';
import { uploadDocumentSide } from '../../../domain/usecases/capture/upload-document.usecase';
import { uploadLiveness } from '../../../domain/usecases/capture/upload-liveness.usecase';
import { uploadSelfie } from '../../../domain/usecases/capture/upload-selfie.usecase';
import { AppError } from '../../../shared/app-error';
import { SESSION_ID_PATTERN } from '../../../shared/random-id';
import { imageBody } from '../middleware/image-body';
import { FramesUpload, multipartFrames } from '../middleware/multipart-frames';
import { streamEvents } from './capture-events';

const idOf = (req: Request): string => {
  const id = String(req.params.id);
  if (!SESSION_ID_PATTERN.test(id)) throw AppError.notFound('session');
  return id;
};

/** `Authorization: Bearer <capture token>`, or null when absent. */
const tokenOf = (req: Request): string | null => {
  const header = req.header('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new AppError('UNAUTHORIZED', 'Send the capture token as `Authorization: Bearer <token>`.');
  return match[1] as string;
};

/**
 * The capture API (contract "Capture API"): no API key, the session id is the capability and the
 * capture token binds it to one device. Routes only translate HTTP; the use cases decide.
 */
export function captureRouter(ctx: AppContext): Router {
  const router = Router();
  const deps = ctx.capture;
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  router.post('/:id/start', async (req, res) => {
    res.json(await startCapture(deps, idOf(req), tokenOf(req)));
  });

  router.put('/:id/document/:side', imageBody, async (req, res) => {
    const side = String(req.params.side);
    const type = String(req.query.type ?? '');
    const problems = [
      ...(side === 'front' || side === 'back' ? [] : [{ field: 'side', message: 'must be front or back' }]),
      ...((DOCUMENT_TYPES as string[]).includes(type) ? [] : [{ field: 'type', message: `must be one of ${DOCUMENT_TYPES.join(', ')}` }]),
    ];
    const id = idOf(req);
    if (problems.length > 0) throw new AppError('VALIDATION_ERROR', 'The request has invalid fields.', problems);
    res.json(await uploadDocumentSide(deps, { id, token: tokenOf(req), side: side as 'front' | 'back', type: type as DocumentType, image: req.body as Buffer }));
  });

  router.post('/:id/liveness', multipartFrames, async (req, res) => {
    const upload = res.locals.frames as FramesUpload;
    res.json(await uploadLiveness(deps, { id: idOf(req), token: tokenOf(req), frames: upload.frames, timestamps: upload.timestamps }));
  });

  router.put('/:id/selfie', imageBody, async (req, res) => {
    res.json(await uploadSelfie(deps, { id: idOf(req), token: tokenOf(req), image: req.body as Buffer }));
  });

  router.post('/:id/submit', async (req, res) => {
    res.status(202).json(await submitCapture(deps, idOf(req), tokenOf(req)));
  });

  router.get('/:id', async (req, res) => {
    res.json(await captureStatus(deps, idOf(req), tokenOf(req)));
  });

  router.get('/:id/events', async (req, res) => {
    const id = idOf(req);
    const first = statusOf(await sessionForCapture(deps, id));
    await streamEvents(req, res, first, async () => statusOf(await sessionForCapture(deps, id)), ctx.config.CAPTURE_EVENTS_POLL_MS);
  });

  router.get('/:id/progress', async (req, res) => {
    res.json(await captureProgress(deps, idOf(req)));
  });

  router.get('/:id/progress/events', async (req, res) => {
    const id = idOf(req);
    const first = await captureProgress(deps, id);
    await streamEvents(req, res, first, () => captureProgress(deps, id), ctx.config.CAPTURE_EVENTS_POLL_MS);
  });

  return router;
}


