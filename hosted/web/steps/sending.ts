import { h } from '../dom';
import type { Flow, StepName } from '../flow';
import type { MessageKey } from '../messages';

/** Shown while an upload is on its way, so a slow phone network does not look like a frozen page. */
export function showSending(flow: Flow, step: StepName, title: MessageKey): void {
  flow.show(
    step,
    title,
    h(
      'p',
      { class: 'sending', role: 'status' },
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      flow.t('sending'),
    ),
  );
}
