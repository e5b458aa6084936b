import { existsSync } from 'node:fs';
import { z } from 'zod';
import { masterKeysProblem } from '../shared/master-keys';

const booleanString = z.enum(['true', 'false']).transform((value) => value === 'true');

/**
 * Every variable the API, the workers and the admin CLI read. Parsed once at start so a bad
 * deployment fails before it accepts traffic, naming every bad variable at once. Exported for the
 * manifests test (k8s/test), which checks every variable a container sets is known here.
 */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    MONGODB_URI: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// or mongodb+srv:// URI'),
    REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL'),
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_:-]+$/)
      .default('bv'),
    INFERENCE_URL: z
      .string()
      .regex(/^[^\s/]+:\d+$/, 'must be host:port')
      .optional(),
    /** The Idempotency-Key lease: renewed every third of it while the request runs, so a key whose request died is usable again within this long (re-run under the same reserved session id). */
    IDEMPOTENCY_LOCK_SECONDS: z.coerce.number().positive().max(3600).default(10),
    SESSION_EXPIRY_MINUTES: z.coerce
      .number()
      .int()
      .positive()
      .max(7 * 24 * 60)
      .default(30),
    WEBHOOK_RETRY_INTERVAL_SECONDS: z.coerce.number().positive().max(3600).default(30),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: booleanString.default(false),
    /** Each attempt is aborted (socket destroyed) after this long; the issue fixes it at 10 s. */
    WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(10),
    /** Worker process: its /healthz and /readyz (0 picks a free port). */
    WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
    /** Deliveries in flight per worker process; they are I/O-bound, so well above the core count. */
    WORKER_CONCURRENCY: z.coerce.number().int().positive().max(1000).default(50),
    /** A job whose worker died is handed to another after about this long (BullMQ lock + stalled check). */
    WORKER_LOCK_DURATION_MS: z.coerce.number().int().min(500).default(30_000),
    WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(200).default(30_000),
    /** Safety nets: how often the outbox and expiry sweeps run (one schedule each, whatever the worker count). */
    OUTBOX_SWEEP_INTERVAL_SECONDS: z.coerce.number().positive().max(3600).default(15),
    EXPIRY_SWEEP_INTERVAL_SECONDS: z.coerce.number().positive().max(3600).default(60),
    /**
     * Opens webhook secrets sealed before they moved into the vault's envelope (the old `v1.` format);
     * any string of 32+ characters. New secrets are sealed by the vault (PII_MASTER_KEYS).
     */
    SECRET_ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters'),
    /**
     * Opens captured images and document reads sealed before they moved into the vault's envelope
     * (the old `BVC1` and `v1.` formats): 32 random bytes, base64. New ones are sealed by the vault.
     */
    CAPTURE_ENCRYPTION_KEY: z
      .string()
      .refine(
        (value) => Buffer.from(value, 'base64').length === 32,
        'must be 32 bytes, base64-encoded (openssl rand -base64 32)',
      ),
    /**
     * Master keys sealing the data keys that encrypt personal data at rest: `<id>:<32 bytes base64>`,
     * comma-separated, the first seals and all open. Rotate by putting a new key first, then
     * `npm run admin -- keys reseal` (every kind of sealed data under the new key), then dropping the old one.
     */
    PII_MASTER_KEYS: z.string().superRefine((value, ctx) => {
      const problem = masterKeysProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    /** Redact decided, cancelled and expired sessions this many days after they ended (accounts may override); unset keeps them. */
    PII_RETENTION_DAYS: z.coerce.number().positive().max(3650).optional(),
    /** How often the retention and billing sweeps run. */
    LIFECYCLE_SWEEP_INTERVAL_SECONDS: z.coerce.number().positive().max(3600).default(60),
    /** Keep captures this many hours after the session ends (decided, expired, cancelled); unset deletes them at once. */
    CAPTURE_RETENTION_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 365)
      .optional(),
    /** Capture writes (start, uploads, submit) allowed per session attempt. */
    CAPTURE_MAX_WRITES: z.coerce.number().int().positive().default(60),
    /** How often the capture event stream looks for changes. */
    CAPTURE_EVENTS_POLL_MS: z.coerce.number().int().min(50).max(10_000).default(1_000),
    /** First retry of a decision the inference service could not make; doubles up to a minute. */
    DECISION_RETRY_BASE_MS: z.coerce.number().int().min(10).default(2_000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Sanctions add-on: how often each process asks the store whether a list has a new version. */
    WATCHLIST_REFRESH_SECONDS: z.coerce.number().min(0).max(3600).default(30),
    SHUTDOWN_GRACE_MS: z.coerce.number().int().positive().default(10_000),
    /** A client has this long to send a request's headers; then the connection is closed (408). */
    HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(10),
    /** ...and this long for the whole request, body included: a body trickled slower is cut (408, closed). */
    HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(60),
    /**
     * Once the request is in, the answer must start within this long, or it is a 503 (event streams
     * excepted). Above the inference client's 30 s check deadline with room for the probe and the
     * writes around it, so a slow but working check answers on its own terms.
     */
    HTTP_RESPONSE_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(60),
    /** Image and frame uploads being received or checked at once, per capture and per client address (more are 429). */
    UPLOADS_IN_FLIGHT_PER_CAPTURE: z.coerce.number().int().positive().max(100).default(2),
    UPLOADS_IN_FLIGHT_PER_ADDRESS: z.coerce.number().int().positive().max(10_000).default(16),
    /**
     * Passport chip trust anchors: comma-separated files or folders of CSCA certificates (PEM or
     * DER), CRLs and CMS-signed CSCA Master Lists. Unset: only sandbox keys verify chips (against
     * the project's test CSCAs); live keys' chips then fail with CHIP_ISSUER_UNTRUSTED.
     */
    CHIP_TRUST_ANCHORS: z
      .string()
      .optional()
      .superRefine((value, ctx) => {
        for (const entry of chipTrustAnchorPaths(value))
          if (!existsSync(entry)) ctx.addIssue({ code: 'custom', message: `${entry} does not exist` });
      }),
  })
  .refine((env) => env.HTTP_HEADERS_TIMEOUT_SECONDS <= env.HTTP_REQUEST_TIMEOUT_SECONDS, {
    path: ['HTTP_HEADERS_TIMEOUT_SECONDS'],
    message: 'must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (the headers are part of the request)',
  });

export function chipTrustAnchorPaths(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

export type AppConfig = Omit<z.infer<typeof envSchema>, 'PUBLIC_BASE_URL'> & { PUBLIC_BASE_URL: string };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`));
  }
  const config = parsed.data;
  const publicBaseUrl = (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  return { ...config, PUBLIC_BASE_URL: publicBaseUrl };
}

/** For entry points: a bad configuration ends the process with EX_CONFIG, naming every bad variable. */
export function loadConfigOrExit(source: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return loadConfig(source);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}
