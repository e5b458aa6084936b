import { createLogger } from '../../../shared/logger';
import { RetentionCandidate } from '../../ports/session-sweeps';
import { sweepRetention, SweepRetentionDeps } from './sweep-retention.usecase';

const NOW = new Date('2026-11-28T12:00:00Z');
const DAY_MS = 24 * 60 * 60 * 1000;
const candidate = (id: string): RetentionCandidate => ({
  _id: id,
  account_id: 'acc_1',
  status: 'VERIFIED',
  decided_at: new Date(NOW.getTime() - 40 * DAY_MS),
  updated_at: new Date(NOW.getTime() - 40 * DAY_MS),
});

function deps(overrides: Partial<SweepRetentionDeps> = {}) {
  const redacted: string[] = [];
  const asked: Array<{ limit: number; now: Date }> = [];
  const d: SweepRetentionDeps = {
    sessions: {
      endedBefore: () => Promise.resolve([candidate('ses_due'), candidate('ses_cut_short')]),
      unfinishedRedactions: (limit, now) => {
        asked.push({ limit, now });
        return Promise.resolve(['ses_cut_short']);
      },
    },
    accounts: { retentionOverrides: () => Promise.resolve([]) },
    defaultDays: 30,
    clock: { now: () => NOW },
    logger: createLogger('silent'),
    redact: (id) => {
      redacted.push(id);
      return Promise.resolve();
    },
    ...overrides,
  };
  return { d, redacted, asked };
}

describe('the retention sweep', () => {
  it('finishes redactions cut short first, then redacts what is past retention, each session once', async () => {
    const { d, redacted, asked } = deps();
    expect(await sweepRetention(d)).toEqual({ redacted: 2 });
    expect(redacted).toEqual(['ses_cut_short', 'ses_due']);
    expect(asked).toEqual([{ limit: 200, now: NOW }]);
  });

  it('finishes redactions cut short even where no retention period is set', async () => {
    const endedBefore = jest.fn(() => Promise.resolve([candidate('ses_due')]));
    const { d, redacted } = deps({ defaultDays: undefined });
    d.sessions.endedBefore = endedBefore;
    expect(await sweepRetention(d)).toEqual({ redacted: 1 });
    expect(redacted).toEqual(['ses_cut_short']);
    expect(endedBefore).not.toHaveBeenCalled();
  });

  it('counts only the redactions that succeeded and leaves the failed one to the next sweep', async () => {
    const { d } = deps({
      redact: (id) => (id === 'ses_due' ? Promise.reject(new Error('store down')) : Promise.resolve()),
    });
    expect(await sweepRetention(d)).toEqual({ redacted: 1 });
  });
});
