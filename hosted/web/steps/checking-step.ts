import type { CaptureState } from '../capture-client';
import { h } from '../dom';
import type { Flow } from '../flow';
import { followSession } from '../follow-session';

/** "Checking" with progress until the decision streams in; resolves with the decided state. */
export function waitForDecision(flow: Flow): Promise<CaptureState> {
  showChecking(flow);
  return new Promise((resolve) => {
    const stop = followSession(flow.client, (state) => {
      if (state.decision !== 'done' && state.status !== 'EXPIRED') return;
      stop();
      resolve(state);
    });
  });
}

export function showChecking(flow: Flow): void {
  flow.show('checking', 'checkingTitle',
    h('p', {}, flow.t('checkingHint')),
    h('progress', { 'aria-label': flow.t('progressLabel') }));
}
