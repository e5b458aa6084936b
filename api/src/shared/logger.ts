import pino, { Logger } from 'pino';

/**
 * Keys, secrets and personal data must never reach a log line, whatever a caller passes in. The
 * paths cover request headers and every field that can carry applicant data.
 */
const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  '*.api_key',
  '*.apiKey',
  '*.webhook_secret',
  '*.secret',
  '*.expected_name',
  '*.expected_dob',
  '*.expected_address',
  '*.person',
  '*.name',
  '*.dob',
  '*.address',
  '*.metadata',
  '*.image',
  '*.frames',
  'body',
  'req.body',
];

export function createLogger(
  level: string,
  bindings: Record<string, unknown> = {},
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'bioverify', ...bindings },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
