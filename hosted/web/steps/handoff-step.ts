import type { ProgressStep } from '../capture-client';
import { button, h } from '../dom';
import type { Flow } from '../flow';
import type { MessageKey, Translate } from '../messages';

/** The phone's steps as the desktop lists them, in order; `submit` means all three are captured. */
const LISTED = ['document', 'liveness', 'selfie'] as const;

const stateOf = (listed: (typeof LISTED)[number], phone: ProgressStep): 'done' | 'current' | 'todo' => {
  const at = phone === 'submit' ? LISTED.length : LISTED.indexOf(phone as (typeof LISTED)[number]);
  const index = LISTED.indexOf(listed);
  return at < 0 ? 'todo' : index < at ? 'done' : index === at ? 'current' : 'todo';
};

function statusText(t: Translate, phone: ProgressStep): string {
  return phone === 'document' || phone === 'liveness' || phone === 'selfie' || phone === 'submit'
    ? t(`handoffOn_${phone}` as MessageKey)
    : t('handoffWaiting');
}

/**
 * Shows where the phone stands on the hand-off view (the `/progress` stream carries no personal
 * data: only the coarse step). Does nothing once the view is gone (the applicant continued here,
 * or the page moved on to checking).
 */
export function showPhoneProgress(t: Translate, phone: ProgressStep): void {
  const list = document.querySelector<HTMLElement>('.handoff-progress');
  if (!list) return;
  list.dataset.progress = phone;
  list.querySelectorAll<HTMLElement>('[data-progress-step]').forEach((item) => {
    const state = stateOf(item.dataset.progressStep as (typeof LISTED)[number], phone);
    item.dataset.state = state;
    const label = item.querySelector('.state');
    if (label) label.textContent = t(`progressState_${state}`);
    if (state === 'current') item.setAttribute('aria-current', 'step');
    else item.removeAttribute('aria-current');
  });
  const status = document.querySelector('.handoff-status');
  if (status) status.textContent = statusText(t, phone);
}

/**
 * The desktop: the QR code (rendered by the server) hands the same URL to the phone, while the
 * page follows the phone (watch-decision.ts) step by step. Resolves if the applicant stays on this
 * computer.
 */
export function showHandoff(flow: Flow, qr: HTMLElement): Promise<void> {
  const { t } = flow;
  return new Promise((resolve) => {
    flow.show(
      'handoff',
      'handoffTitle',
      h('p', {}, t('handoffHint')),
      qr,
      h(
        'ol',
        { class: 'handoff-progress', 'aria-label': t('progressLabel'), 'data-progress': 'waiting' },
        ...LISTED.map((step) =>
          h(
            'li',
            { 'data-progress-step': step, 'data-state': 'todo' },
            h('span', { class: 'label' }, t(`progress_${step}`)),
            ' ',
            h('span', { class: 'state' }, t('progressState_todo')),
          ),
        ),
      ),
      h('p', { class: 'handoff-status', role: 'status' }, t('handoffWaiting')),
      h(
        'div',
        { class: 'actions' },
        button(t('continueHere'), 'continue-here', () => resolve(), { class: 'secondary' }),
      ),
    );
    if (flow.phoneStep) showPhoneProgress(t, flow.phoneStep);
  });
}
