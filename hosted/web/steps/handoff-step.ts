import type { CaptureState } from '../capture-client';
import { button, h } from '../dom';
import type { Flow } from '../flow';
import { followSession } from '../follow-session';
import { showChecking } from './checking-step';
import { showOutcome } from './outcome-step';

/**
 * The desktop: the QR code (rendered by the server) hands the same URL to the phone; this page then
 * follows the phone live and ends on the outcome. Resolves if the applicant stays on this computer.
 */
export function showHandoff(flow: Flow, qr: HTMLElement | null): Promise<void> {
  const { t } = flow;
  return new Promise((resolve) => {
    const status = h('p', { class: 'handoff-status', role: 'status' }, t('handoffWaiting'));
    flow.show('handoff', 'handoffTitle',
      h('p', {}, t('handoffHint')),
      qr,
      status,
      h('div', { class: 'actions' }, button(t('continueHere'), 'continue-here', () => {
        stop();
        resolve();
      }, { class: 'secondary' })));
    const stop = followSession(flow.client, (state: CaptureState) => {
      if (state.decision === 'done' || state.status === 'EXPIRED') {
        stop();
        showOutcome(flow, state);
      } else if (state.decision === 'pending' && document.body.dataset.step !== 'checking') {
        showChecking(flow);
      }
    });
  });
}
