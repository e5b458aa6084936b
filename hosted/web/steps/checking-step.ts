import { h } from '../dom';
import type { Flow } from '../flow';

export function showChecking(flow: Flow): void {
  flow.releaseCamera();
  flow.show(
    'checking',
    'checkingTitle',
    h('p', {}, flow.t('checkingHint')),
    h('progress', { 'aria-label': flow.t('progressLabel') }),
  );
}
