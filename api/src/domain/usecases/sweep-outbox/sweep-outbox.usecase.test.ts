import { OutboxEntry } from '../../ports/webhook-outbox';
import { createLogger } from '../../../shared/logger';
import { sweepOutbox, SweepOutboxDeps } from './sweep-outbox.usecase';

type Row = { entry: OutboxEntry; job: string | null; settlement: 'delivered' | 'failed' | null };

function harness(rows: Row[]) {
  const calls: string[] = [];
  const find = (id: string) => rows.find((r) => r.entry._id === id)!;
  const deps: SweepOutboxDeps = {
    outbox: {
      listPending: () => Promise.resolve(rows.map((r) => r.entry)),
      settlementOf: (id) => Promise.resolve(find(id).settlement),
      applySettlement: (id, round, state) => Promise.resolve(void calls.push(`apply ${id} r${round} ${state}`)),
      isStillPending: (id) => Promise.resolve(find(id).settlement === null),
    },
    queue: {
      deliveryBacklog: () => Promise.resolve(0),
      webhookJobState: (jobId) => Promise.resolve(find(jobId.split('.')[0]).job),
      removeFinishedWebhookJob: (jobId) => Promise.resolve(void calls.push(`remove ${jobId}`)),
      enqueueDelivery: (id, status, round) => Promise.resolve(void calls.push(`enqueue ${id} ${status} r${round}`)),
    },
    claims: { rollForwardClaimedBetween: () => Promise.resolve(0) },
    claimLookbackMs: 60_000,
    clock: { now: () => new Date() },
    logger: createLogger('silent'),
  };
  return { deps, calls };
}

const entry = (id: string, status: OutboxEntry['status'] = 'VERIFIED', round = 0): OutboxEntry => ({
  _id: id,
  status,
  webhook_redeliveries: round,
});

describe('sweepOutbox', () => {
  it('enqueues a decided delivery the queue does not hold (the API died before its enqueue)', async () => {
    const h = harness([{ entry: entry('ses_a', 'FAILED'), job: null, settlement: null }]);
    expect(await sweepOutbox(h.deps)).toMatchObject({ enqueued: 1, requeued: 0, settled: 0 });
    expect(h.calls).toEqual(['enqueue ses_a FAILED r0']);
  });

  it('leaves alone a delivery whose job is waiting, delayed for a retry, or running', async () => {
    const h = harness(
      ['waiting', 'delayed', 'active'].map((job, i) => ({ entry: entry(`ses_${i}`), job, settlement: null })),
    );
    await sweepOutbox(h.deps);
    expect(h.calls).toEqual([]);
  });

  it('copies a settled round onto the session, and never sends it again even when its job is gone', async () => {
    const h = harness([
      { entry: entry('ses_done'), job: 'completed', settlement: 'delivered' },
      { entry: entry('ses_old', 'VERIFIED', 2), job: null, settlement: 'failed' },
    ]);
    await sweepOutbox(h.deps);
    expect(h.calls).toEqual(['apply ses_done r0 delivered', 'apply ses_old r2 failed']);
  });

  it('replaces a job the queue finished without a settlement (it stalled too often)', async () => {
    const h = harness([{ entry: entry('ses_stalled', 'VERIFIED', 1), job: 'failed', settlement: null }]);
    expect(await sweepOutbox(h.deps)).toMatchObject({ requeued: 1 });
    expect(h.calls).toEqual(['remove ses_stalled.VERIFIED.r1', 'enqueue ses_stalled VERIFIED r1']);
  });

  it('ignores sessions that are not decided', async () => {
    const h = harness([{ entry: entry('ses_open', 'PENDING'), job: null, settlement: null }]);
    await sweepOutbox(h.deps);
    expect(h.calls).toEqual([]);
  });
});
