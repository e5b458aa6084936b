import { Request, Response, Router } from 'express';
import { AppContext } from '../../../app-context';
import { rawJsonMember } from '../../../domain/results/raw-json-member';
import { cancelSession } from '../../../domain/usecases/cancel-session/cancel-session.usecase';
import { endCapture } from '../../../domain/usecases/capture/end-capture';
import { createSession } from '../../../domain/usecases/create-session/create-session.usecase';
import { listAttempts } from '../../../domain/usecases/list-attempts/list-attempts.usecase';
import {
  getSessionReport,
  getSessionResult,
  getSessionStatus,
} from '../../../domain/usecases/read-session/read-session.usecase';
import { redactSession } from '../../../domain/usecases/redact-session/redact-session.usecase';
import { retrySession } from '../../../domain/usecases/retry-session/retry-session.usecase';
import { SimulateCommand, simulateSession } from '../../../domain/usecases/simulate-session/simulate-session.usecase';
import { AppError, ErrorDetail } from '../../../shared/app-error';
import { SESSION_ID_PATTERN } from '../../../shared/random-id';
import { authenticate, tenantOf } from '../middleware/authenticate';
import { idempotency, reservedSessionIdOf } from '../middleware/idempotency';
import { jsonBody, rawBodyOf } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { timeStage } from '../middleware/stage-timing';
import { createSessionRequest, simulateRequest } from '../schemas/session.schemas';
import { validate } from '../validation';
import { timedCreateDeps } from './timed-create-deps';

const METADATA_MAX_BYTES = 8 * 1024;

/** A malformed id cannot exist: answer 404 without asking the store. */
function sessionIdOf(req: Request): string {
  const id = String(req.params.id);
  if (!SESSION_ID_PATTERN.test(id)) throw AppError.notFound('session');
  return id;
}

/** Who is reading, for the audit log. */
const readerOf = (ctx: AppContext, res: Response) => ({
  audit: ctx.audit,
  requestId: (res.locals.requestId as string | undefined) ?? null,
});

function sendJsonText(res: Response, status: number, body: string): void {
  res.status(status).type('application/json').send(body);
}

export function sessionsRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(timeStage('authenticate', authenticate(ctx)), timeStage('rate_limit', rateLimit(ctx)));
  const billing = { ledger: ctx.ledger, accounts: ctx.accounts, sessions: ctx.sessions, clock: ctx.clock };
  const sessionDeps = {
    ...ctx,
    billing,
    publicBaseUrl: ctx.config.PUBLIC_BASE_URL,
    expiryMinutes: ctx.config.SESSION_EXPIRY_MINUTES,
  };
  const cancelDeps = {
    ...ctx,
    endCapture: (id: string, attempt: number) => endCapture(ctx.capture, id, attempt),
  };

  router.post(
    '/',
    timeStage('body', jsonBody),
    timeStage('idempotency', idempotency(ctx)),
    timeStage('create', async (req, res) => {
      const tenant = tenantOf(res);
      const metadataJson = req.body && typeof req.body === 'object' ? rawJsonMember(rawBodyOf(req), 'metadata') : null;
      const extra: ErrorDetail[] = [];
      if (metadataJson !== null && Buffer.byteLength(metadataJson, 'utf8') > METADATA_MAX_BYTES) {
        extra.push({ field: 'metadata', message: `must be at most ${METADATA_MAX_BYTES} bytes serialized` });
      }
      const command = validate(createSessionRequest, req.body, extra);
      const created = await createSession(timedCreateDeps(sessionDeps, res), tenant, {
        ...command,
        metadataJson,
        reservedSessionId: reservedSessionIdOf(res),
      });
      res.status(201).json(created);
    }),
  );

  router.get(
    '/:id',
    timeStage('status', async (req, res) => {
      res.json(await getSessionStatus(ctx.sessions, tenantOf(res), sessionIdOf(req)));
    }),
  );

  router.get(
    '/:id/result',
    timeStage('result', async (req, res) => {
      sendJsonText(res, 200, await getSessionResult(ctx.sessions, tenantOf(res), sessionIdOf(req), readerOf(ctx, res)));
    }),
  );

  router.post('/:id/retry', jsonBody, idempotency(ctx), async (req, res) => {
    res.json(await retrySession(sessionDeps, tenantOf(res), sessionIdOf(req)));
  });

  router.get('/:id/attempts', async (req, res) => {
    sendJsonText(res, 200, await listAttempts(ctx, tenantOf(res), sessionIdOf(req), readerOf(ctx, res)));
  });

  router.get(
    '/:id/report',
    timeStage('report', async (req, res) => {
      sendJsonText(res, 200, await getSessionReport(ctx.sessions, tenantOf(res), sessionIdOf(req), readerOf(ctx, res)));
    }),
  );

  router.delete('/:id', async (req, res) => {
    res.json(await cancelSession(cancelDeps, tenantOf(res), sessionIdOf(req)));
  });

  router.post('/:id/redact', async (req, res) => {
    const tenant = tenantOf(res);
    const scoped = ctx.sessions.forTenant(tenant);
    res.json(
      await redactSession({ ...ctx, billing }, (id) => scoped.get(id), sessionIdOf(req), {
        actor: { type: 'api_key', id: tenant.keyId },
        requestId: readerOf(ctx, res).requestId,
        cancelOpen: async (id) => void (await cancelSession(cancelDeps, tenant, id)),
      }),
    );
  });

  router.post('/:id/simulate', jsonBody, async (req, res) => {
    const tenant = tenantOf(res);
    const id = sessionIdOf(req);
    if (tenant.environment !== 'sandbox')
      throw new AppError('FORBIDDEN', 'Simulation is available to sandbox keys only.');
    const command = validate(simulateRequest, req.body) as SimulateCommand;
    sendJsonText(res, 200, await simulateSession(ctx, tenant, id, command));
  });

  return router;
}
