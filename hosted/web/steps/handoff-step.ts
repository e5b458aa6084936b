import { button, h } from '../dom';
import type { Flow } from '../flow';

/**
 * The desktop: the QR code (rendered by the server) hands the same URL to the phone, while the
 * page follows the phone (watch-decision.ts). Resolves if the applicant stays on this computer.
 */
export function showHandoff(flow: Flow, qr: HTMLElement): Promise<void> {
  const { t } = flow;
  return new Promise((resolve) => {
    flow.show('handoff', 'handoffTitle',
      h('p', {}, t('handoffHint')),
      qr,
      h('p', { class: 'handoff-status', role: 'status' }, t('handoffWaiting')),
      h('div', { class: 'actions' }, button(t('continueHere'), 'continue-here', () => resolve(), { class: 'secondary' })));
  });
}
