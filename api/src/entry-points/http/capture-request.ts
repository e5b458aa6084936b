import { Request } from 'express';
import { AppError } from '../../shared/app-error';
import { SESSION_ID_PATTERN } from '../../shared/random-id';

/** The session id of a capture route, or 404 for anything that cannot be one. */
export const captureIdOf = (req: Request): string => {
  const id = String(req.params.id);
  if (!SESSION_ID_PATTERN.test(id)) throw AppError.notFound('session');
  return id;
};

/** `Authorization: Bearer <capture token>`, or null when absent. */
export const captureTokenOf = (req: Request): string | null => {
  const header = req.header('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new AppError('UNAUTHORIZED', 'Send the capture token as `Authorization: Bearer <token>`.');
  return match[1];
};
