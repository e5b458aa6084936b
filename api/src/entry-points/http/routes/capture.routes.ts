import { Router } from 'express';
import { AppContext } from '../../../app-context';
import { DocumentType } from '../../../domain/session-status';
import { captureProgress } from '../../../domain/usecases/capture/capture-progress.usecase';
import { captureStatus, statusOf } from '../../../domain/usecases/capture/capture-status.usecase';
import { sessionForCapture } from '../../../domain/usecases/capture/capture-access';
import { DOCUMENT_TYPES, startCapture } from '../../../domain/usecases/capture/start-capture.usecase';
import { issueChipChallenge } from '../../../domain/usecases/capture/chip-challenge.usecase';
import { submitCapture } from '../../../domain/usecases/capture/submit-capture.usecase';
import { uploadChip } from '../../../domain/usecases/capture/upload-chip.usecase';
import { uploadIntegrity } from '../../../domain/usecases/capture/upload-integrity.usecase';
import { uploadDocumentSide } from '../../../domain/usecases/capture/upload-document.usecase';
import { uploadLiveness } from '../../../domain/usecases/capture/upload-liveness.usecase';
import { uploadSelfie } from '../../../domain/usecases/capture/upload-selfie.usecase';
import {
  completePacedStep,
  revealPacedStep,
  uploadPacedFrames,
} from '../../../domain/usecases/capture/paced-liveness.usecase';
import { AppError } from '../../../shared/app-error';
import { captureIdOf, captureTokenOf } from '../capture-request';
import { captureUploadGate } from '../middleware/capture-upload-gate';
import { imageBody } from '../middleware/image-body';
import { jsonBodyUpTo } from '../middleware/json-body';
import { CHIP_BODY_LIMIT_BYTES, chipUploadRequest } from '../schemas/capture.schemas';
import { INTEGRITY_BODY_LIMIT_BYTES, integrityUploadRequest } from '../schemas/capture-integrity.schemas';
import { validate } from '../validation';
import { FramesUpload, multipartFrames } from '../middleware/multipart-frames';
import { streamEvents } from './capture-events';

/**
 * The capture API (contract "Capture API"): no API key, the session id is the capability and the
 * capture token binds it to one device. Routes only translate HTTP; the use cases decide.
 */
export function captureRouter(ctx: AppContext): Router {
  const router = Router();
  const deps = ctx.capture;
  // Authorization and the in-flight bounds come before any body parser, on every upload.
  const uploadGate = captureUploadGate(deps, {
    perCapture: ctx.config.UPLOADS_IN_FLIGHT_PER_CAPTURE,
    perAddress: ctx.config.UPLOADS_IN_FLIGHT_PER_ADDRESS,
  });
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  router.post('/:id/start', async (req, res) => {
    res.json(await startCapture(deps, captureIdOf(req), captureTokenOf(req)));
  });

  router.post('/:id/chip/challenge', async (req, res) => {
    res.json(await issueChipChallenge(deps, { id: captureIdOf(req), token: captureTokenOf(req) }));
  });

  // Registered before /document/:side, which would otherwise take "chip" as a side.
  router.put('/:id/document/chip', uploadGate, jsonBodyUpTo(CHIP_BODY_LIMIT_BYTES), async (req, res) => {
    const body = validate(chipUploadRequest, req.body);
    res.json(await uploadChip(deps, { id: captureIdOf(req), token: captureTokenOf(req), body }));
  });

  router.put('/:id/integrity', uploadGate, jsonBodyUpTo(INTEGRITY_BODY_LIMIT_BYTES), async (req, res) => {
    const signals = validate(integrityUploadRequest, req.body);
    res.json(await uploadIntegrity(deps, { id: captureIdOf(req), token: captureTokenOf(req), signals }));
  });

  router.put('/:id/document/:side', uploadGate, imageBody, async (req, res) => {
    const side = String(req.params.side);
    // Express's simple query parser gives a string, or an array when ?type= is repeated: never a document type.
    const type = typeof req.query.type === 'string' ? req.query.type : '';
    const problems = [
      ...(side === 'front' || side === 'back' ? [] : [{ field: 'side', message: 'must be front or back' }]),
      ...((DOCUMENT_TYPES as string[]).includes(type)
        ? []
        : [{ field: 'type', message: `must be one of ${DOCUMENT_TYPES.join(', ')}` }]),
    ];
    const id = captureIdOf(req);
    if (problems.length > 0) throw new AppError('VALIDATION_ERROR', 'The request has invalid fields.', problems);
    res.json(
      await uploadDocumentSide(deps, {
        id,
        token: captureTokenOf(req),
        side: side as 'front' | 'back',
        type: type as DocumentType,
        image: req.body as Buffer,
      }),
    );
  });

  router.post('/:id/liveness', uploadGate, multipartFrames, async (req, res) => {
    const upload = res.locals.frames as FramesUpload;
    res.json(
      await uploadLiveness(deps, {
        id: captureIdOf(req),
        token: captureTokenOf(req),
        frames: upload.frames,
        timestamps: upload.timestamps,
      }),
    );
  });

  // The server-paced challenge (docs/paced-challenge.md): reveal, frames in chunks, complete.
  router.post('/:id/liveness/steps', async (req, res) => {
    res.status(201).json(await revealPacedStep(deps, captureIdOf(req), captureTokenOf(req)));
  });

  router.post('/:id/liveness/steps/:stepId/frames', uploadGate, multipartFrames, async (req, res) => {
    const upload = res.locals.frames as FramesUpload;
    res.json(
      await uploadPacedFrames(deps, {
        id: captureIdOf(req),
        token: captureTokenOf(req),
        stepId: String(req.params.stepId),
        frames: upload.frames,
        timestamps: upload.timestamps,
      }),
    );
  });

  router.post('/:id/liveness/steps/:stepId/complete', async (req, res) => {
    res.json(
      await completePacedStep(deps, {
        id: captureIdOf(req),
        token: captureTokenOf(req),
        stepId: String(req.params.stepId),
      }),
    );
  });

  router.put('/:id/selfie', uploadGate, imageBody, async (req, res) => {
    res.json(
      await uploadSelfie(deps, {
        id: captureIdOf(req),
        token: captureTokenOf(req),
        image: req.body as Buffer,
      }),
    );
  });

  router.post('/:id/submit', async (req, res) => {
    res.status(202).json(await submitCapture(deps, captureIdOf(req), captureTokenOf(req)));
  });

  router.get('/:id', async (req, res) => {
    res.json(await captureStatus(deps, captureIdOf(req), captureTokenOf(req)));
  });

  router.get('/:id/events', async (req, res) => {
    const id = captureIdOf(req);
    const first = statusOf(await sessionForCapture(deps, id));
    await streamEvents(
      req,
      res,
      first,
      async () => statusOf(await sessionForCapture(deps, id)),
      ctx.config.CAPTURE_EVENTS_POLL_MS,
    );
  });

  router.get('/:id/progress', async (req, res) => {
    res.json(await captureProgress(deps, captureIdOf(req)));
  });

  router.get('/:id/progress/events', async (req, res) => {
    const id = captureIdOf(req);
    const first = await captureProgress(deps, id);
    await streamEvents(req, res, first, () => captureProgress(deps, id), ctx.config.CAPTURE_EVENTS_POLL_MS);
  });

  return router;
}
