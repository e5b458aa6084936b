import QRCode from 'qrcode';
import { escapeHtml, layout } from './html';
import { Locale, t } from './messages';

export interface VerificationPageInput {
  sessionId: string;
  locale: Locale;
  status: 'PENDING' | 'IN_PROGRESS' | 'VERIFIED' | 'FAILED' | 'EXPIRED';
  verificationUrl: string;
  /** Origin of the session's return_url: where the page posts widget events when framed. */
  parentOrigin: string | null;
}

export const FLOW_SCRIPT = '/hosted/dist/flow.js';

/**
 * The shell of the hosted page at verification_url; `hosted/web/` runs the flow in it. The QR code
 * (shown on a desktop to hand the same URL to a phone) is rendered here so the script stays small.
 */
export async function renderVerificationPage(input: VerificationPageInput): Promise<string> {
  const { locale } = input;
  if (input.status !== 'PENDING' && input.status !== 'IN_PROGRESS') {
    return layout(
      locale,
      t(locale, 'title'),
      `<h1>${t(locale, 'title')}</h1>\n<p class="final" data-status="${input.status}">${t(locale, `done_${input.status}`)}</p>`,
    );
  }
  const qr = await QRCode.toString(input.verificationUrl, {
    type: 'svg',
    margin: 1,
    errorCorrectionLevel: 'M',
  });
  return layout(
    locale,
    t(locale, 'title'),
    `<div id="flow">
<h1>${t(locale, 'title')}</h1>
<p>${t(locale, 'intro')}</p>
<noscript><p>${t(locale, 'needsScript')}</p></noscript>
</div>
<figure id="handoff-qr" class="qr" hidden data-url="${escapeHtml(input.verificationUrl)}" role="img" aria-label="${escapeHtml(t(locale, 'qrLabel'))}">${qr}</figure>`,
    {
      bodyData: {
        'session-id': input.sessionId,
        locale,
        'parent-origin': input.parentOrigin ?? '',
        status: input.status,
      },
      scripts: [FLOW_SCRIPT],
    },
  );
}

export function renderNotFoundPage(locale: Locale): string {
  return layout(locale, t(locale, 'title'), `<h1>${t(locale, 'notFound')}</h1>`);
}
