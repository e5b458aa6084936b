import { CaptureState } from '../../capture/capture-state';
import { Session } from '../../session/session';
import { AppError } from '../../../shared/app-error';
import { authorizedState, hashToken } from './capture-access';
import { CaptureDeps } from './capture-deps';

const TOKEN = 'ct_device';
const session = { _id: 'ses_x', status: 'IN_PROGRESS', attempt: 1 } as Session;
const depsWith = (state: Partial<CaptureState> | null) =>
  ({
    states: {
      find: () =>
        Promise.resolve(state ? ({ token_hash: hashToken(TOKEN), purged_at: null, ...state } as CaptureState) : null),
    },
  }) as unknown as CaptureDeps;
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'none',
    (error: AppError) => error.code,
  );

describe("the capture token's check", () => {
  it('lets the device that started the capture through, and no other token', async () => {
    await expect(authorizedState(depsWith({}), session, TOKEN, 'write')).resolves.toMatchObject({
      token_hash: hashToken(TOKEN),
    });
    expect(await codeOf(authorizedState(depsWith({}), session, 'ct_other', 'write'))).toBe('UNAUTHORIZED');
    expect(await codeOf(authorizedState(depsWith({}), session, null, 'write'))).toBe('UNAUTHORIZED');
  });

  it('answers a write that meets a capture ended mid-request (the decision landed) with 409, as for any ended session', async () => {
    expect(await codeOf(authorizedState(depsWith({ purged_at: new Date() }), session, TOKEN, 'write'))).toBe(
      'CONFLICT',
    );
  });

  it('keeps refusing a read of an ended capture as a token error', async () => {
    expect(await codeOf(authorizedState(depsWith({ purged_at: new Date() }), session, TOKEN, 'read'))).toBe(
      'UNAUTHORIZED',
    );
  });
});
