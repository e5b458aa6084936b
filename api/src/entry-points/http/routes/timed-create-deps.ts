import { Response } from 'express';
import { CreateSessionDeps } from '../../../domain/usecases/create-session/create-session.usecase';
import { stageClock } from '../middleware/stage-timing';

/**
 * The create's outside steps, each timed as its own stage (`create_queue_check`, `create_store`,
 * `create_expiry`, `create_usage`), so /metrics says which one a slow create waited on; the
 * `create` stage around them also holds the validation, the sealing and the response.
 */
export function timedCreateDeps(deps: CreateSessionDeps, res: Response): CreateSessionDeps {
  const time = stageClock(res);
  const { sessions, queue, usage } = deps;
  return {
    ...deps,
    sessions: {
      insertOnce: (session) => time('create_store', () => sessions.insertOnce(session)),
      forTenant: (tenant) => sessions.forTenant(tenant),
    },
    queue: {
      assertWritable: () => time('create_queue_check', () => queue.assertWritable()),
      scheduleExpiry: (id, at, attempt) => time('create_expiry', () => queue.scheduleExpiry(id, at, attempt)),
    },
    usage: {
      recordSessionCreation: (keyId, at) => time('create_usage', () => usage.recordSessionCreation(keyId, at)),
    },
  };
}
