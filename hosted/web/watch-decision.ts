import type { CaptureState } from './capture-client';
import type { Flow } from './flow';
import { followSession } from './follow-session';
import { showChecking } from './steps/checking-step';
import { showPhoneProgress } from './steps/handoff-step';
import { showOutcome } from './steps/outcome-step';

const decided = (state: CaptureState) => state.decision === 'done' || state.status === 'EXPIRED';

/**
 * Follows the session for as long as the page is open, whichever device captures: the phone's step
 * on the desktop's hand-off view, "checking" once the captures are submitted, the outcome once
 * decided (also when the decision came from elsewhere: the phone, a cancellation by the
 * integrator, expiry).
 */
export function watchDecision(flow: Flow, initial: CaptureState): void {
  const apply = (state: CaptureState): boolean => {
    if (decided(state)) {
      showOutcome(flow, state);
      return true;
    }
    if (state.step) {
      flow.phoneStep = state.step;
      showPhoneProgress(flow.t, state.step);
    }
    const step = document.body.dataset.step;
    if (state.decision === 'pending' && step !== 'checking') showChecking(flow);
    return false;
  };
  if (apply(initial)) return;
  const stop = followSession(flow.client, (state) => {
    if (apply(state)) stop();
  });
}
