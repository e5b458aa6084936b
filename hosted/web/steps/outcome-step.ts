import type { CaptureState } from '../capture-client';
import { button, h, notice } from '../dom';
import type { Flow } from '../flow';

/** Seconds before a decided page takes the applicant back to the integrator's return_url. */
export const REDIRECT_DELAY_MS = 5000;

const outcomeKey = (status: string) =>
  status === 'VERIFIED' ? 'outcome_VERIFIED' : status === 'EXPIRED' ? 'outcome_EXPIRED' : 'outcome_FAILED';

/**
 * The outcome in the applicant's language, then back to return_url: after a short delay or a tap
 * on a page of its own; inside the widget the integrator's page decides (the `complete` event).
 */
export function showOutcome(flow: Flow, state: CaptureState): void {
  flow.releaseCamera();
  const { t } = flow;
  const redirect = state.redirect_url;
  const leave = () => {
    if (!redirect) return;
    if (flow.config.embedded) window.top?.location.assign(redirect);
    else window.location.assign(redirect);
  };
  const section = flow.show(
    'done',
    'title',
    h('p', { class: `outcome outcome-${state.status}`, 'data-status': state.status }, t(outcomeKey(state.status))),
    redirect && !flow.config.embedded ? notice(t('redirecting')) : null,
    redirect ? h('div', { class: 'actions' }, button(t('continue'), 'continue', leave)) : null,
  );
  section.dataset.status = state.status;
  flow.bridge.post('complete', { status: state.status, redirect_url: redirect });
  if (redirect && !flow.config.embedded) setTimeout(leave, REDIRECT_DELAY_MS);
}

export function showError(flow: Flow, message: string, retry?: () => void): void {
  flow.releaseCamera();
  flow.show(
    'error',
    'title',
    notice(message, 'problem'),
    retry ? h('div', { class: 'actions' }, button(flow.t('tryAgain'), 'retake', retry)) : null,
  );
}
