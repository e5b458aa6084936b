import { button, h } from '../dom';
import type { Flow } from '../flow';
import { isMessageKey } from '../messages';

/** What is captured, why, and how long it is kept, before anything is asked of the applicant. */
export function showIntro(flow: Flow): Promise<void> {
  const { t } = flow;
  return new Promise((resolve) => {
    flow.show(
      'intro',
      'title',
      h('p', { class: 'lead' }, t('introLead')),
      h('ul', { class: 'facts' }, h('li', {}, t('introWhat')), h('li', {}, t('introWhy')), h('li', {}, t('introKept'))),
      h(
        'div',
        { class: 'actions' },
        button(t('start'), 'start', () => resolve()),
        flow.config.embedded
          ? button(t('cancel'), 'cancel', () => flow.bridge.post('cancel'), { class: 'secondary' })
          : null,
      ),
    );
  });
}

export function chooseDocumentType(flow: Flow): Promise<void> {
  const { t } = flow;
  return new Promise((resolve) => {
    const choices = flow.documentTypes.map((type) => {
      const key = `doc_${type}`;
      const label = isMessageKey(key) ? t(key) : type;
      return h(
        'li',
        {},
        button(
          label,
          'continue',
          () => {
            flow.documentType = type;
            flow.client.rememberDocumentType(type);
            resolve();
          },
          { 'data-document-type': type, class: 'choice' },
        ),
      );
    });
    flow.show('document-type', 'documentTypeTitle', h('ul', { class: 'choices' }, ...choices));
  });
}
