/**
 * The integrators' traffic mix, driven by autocannon: each client (one connection, one request in
 * flight) repeats create → status read of what it just created → result, report and deliveries
 * list of a decided session of its account. Latency is recorded per operation: autocannon calls a
 * request's onResponse (which names the operation in the connection's context) just before it
 * emits 'response' with that response's time.
 */
import autocannon from 'autocannon';
import { percentile } from '../../scripts/test-support/percentiles';
import type { DecidedPool } from './fill-store';
import type { LoadAccount } from './load-stack';

export const OPERATIONS = ['create', 'status', 'result', 'report', 'deliveries'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface OperationFigures {
  n: number;
  per_s: number;
  mean_ms: number | null;
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  statuses: Record<string, number>;
}

export interface MixFigures {
  clients: number;
  duration_s: number;
  requests_per_s: number;
  statuses: Record<string, number>;
  /** Connection errors and timeouts (no HTTP answer at all). */
  errors: number;
  timeouts: number;
  operations: Record<Operation, OperationFigures>;
  /** Ids the mix created, per account (the next status reads and the store size). */
  created: number;
}

interface ClientContext {
  account?: number;
  op?: Operation;
  lastCreated?: string;
}

const createBody = JSON.stringify({
  return_url: 'https://example.com/done',
  webhook_url: 'https://example.com/hooks',
  expected_name: 'Jane Doe',
  metadata: { order: 'load-bench' },
});

export async function runMix(
  baseUrl: string,
  accounts: LoadAccount[],
  pool: DecidedPool,
  clients: number,
  durationS: number,
  without: readonly string[] = [],
): Promise<MixFigures> {
  let nextAccount = 0;
  let created = 0;
  const samples = Object.fromEntries(OPERATIONS.map((op) => [op, [] as number[]])) as Record<Operation, number[]>;
  const statuses = Object.fromEntries(OPERATIONS.map((op) => [op, {}])) as Record<Operation, Record<string, number>>;
  const accountOf = (context: ClientContext) => (context.account ??= nextAccount++ % accounts.length);
  const headersOf = (context: ClientContext, json = false) => ({
    'x-api-key': accounts[accountOf(context)].key,
    ...(json ? { 'content-type': 'application/json' } : {}),
  });
  const decided = (context: ClientContext) => {
    const ids = pool[accountOf(context)];
    return ids[Math.floor(Math.random() * ids.length)];
  };
  const read = (op: Operation, suffix: string, pick: (context: ClientContext) => string): autocannon.Request => ({
    method: 'GET',
    setupRequest: (req, context) => ({
      ...req,
      path: `/v1/sessions/${pick(context)}${suffix}`,
      headers: headersOf(context),
    }),
    onResponse: (_status, _body, context) => void ((context as ClientContext).op = op),
  });
  let instance!: autocannon.Instance;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: baseUrl,
        connections: clients,
        pipelining: 1,
        duration: durationS,
        timeout: 10,
        requests: (
          [
            {
              method: 'POST',
              setupRequest: (req, context) => ({
                ...req,
                path: '/v1/sessions',
                body: createBody,
                headers: headersOf(context as ClientContext, true),
              }),
              onResponse: (status, body, context) => {
                const ctx = context as ClientContext;
                ctx.op = 'create';
                if (status === 201) {
                  ctx.lastCreated = (JSON.parse(body) as { session_id: string }).session_id;
                  created += 1;
                }
              },
            },
            read('status', '', (context) => context.lastCreated ?? decided(context)),
            read('result', '/result', decided),
            read('report', '/report', decided),
            read('deliveries', '/webhooks', decided),
          ] as Array<autocannon.Request & { op?: Operation }>
        ).filter((_req, i) => !without.includes(OPERATIONS[i])),
      },
      (error: Error | null, result: autocannon.Result) => (error ? reject(error) : resolve(result)),
    );
  });
  instance.on('response', (client: autocannon.Client, statusCode: number, _bytes: number, responseTime: number) => {
    const op =
      (client as unknown as { requestIterator: { context: ClientContext } }).requestIterator.context.op ?? 'create';
    samples[op].push(responseTime);
    statuses[op][statusCode] = (statuses[op][statusCode] ?? 0) + 1;
  });
  const result = await finished;
  const total: Record<string, number> = {};
  for (const op of OPERATIONS)
    for (const [code, n] of Object.entries(statuses[op])) total[code] = (total[code] ?? 0) + n;
  const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
  const operations = Object.fromEntries(
    OPERATIONS.map((op) => {
      const s = samples[op];
      return [
        op,
        {
          n: s.length,
          per_s: round(s.length / durationS)!,
          mean_ms: round(s.length ? s.reduce((a, b) => a + b, 0) / s.length : null),
          p50_ms: round(percentile(s, 50)),
          p99_ms: round(percentile(s, 99)),
          max_ms: round(s.length ? Math.max(...s) : null),
          statuses: statuses[op],
        },
      ];
    }),
  ) as Record<Operation, OperationFigures>;
  const answered = OPERATIONS.reduce((sum, op) => sum + samples[op].length, 0);
  return {
    clients,
    duration_s: durationS,
    requests_per_s: round(answered / durationS)!,
    statuses: total,
    errors: result.errors,
    timeouts: result.timeouts,
    operations,
    created,
  };
}
