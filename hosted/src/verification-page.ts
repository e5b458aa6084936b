import QRCode from 'qrcode';
import { escapeHtml, layout } from './html';
import { Locale, t } from './messages';

export interface VerificationPageInput {
  locale: Locale;
  status: 'PENDING' | 'IN_PROGRESS' | 'VERIFIED' | 'FAILED' | 'EXPIRED';
  verificationUrl: string;
}

/**
 * The hosted page at verification_url. On a desktop (wide screen, fine pointer) it shows a QR code
 * carrying the same URL so the applicant continues on a phone; the capture steps run on the phone.
 */
export async function renderVerificationPage(input: VerificationPageInput): Promise<string> {
  const { locale } = input;
  if (input.status !== 'PENDING' && input.status !== 'IN_PROGRESS') {
    return layout(locale, t(locale, 'title'), `<h1>${t(locale, 'title')}</h1>\n<p class="final" data-status="${input.status}">${t(locale, `done_${input.status}`)}</p>`);
  }
  const qr = await QRCode.toString(input.verificationUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return layout(
    locale,
    t(locale, 'title'),
    `<h1>${t(locale, 'title')}</h1>
<p>${t(locale, 'intro')}</p>
<section class="desktop-only" aria-label="QR">
  <p>${t(locale, 'desktopHandoff')}</p>
  <div class="qr" data-url="${escapeHtml(input.verificationUrl)}">${qr}</div>
</section>
<section class="phone-only" id="capture" data-status="${input.status}">
  <p>${t(locale, 'phoneStart')}</p>
  <p>${t(locale, 'open_IN_PROGRESS')}</p>
</section>`,
  );
}

export function renderNotFoundPage(locale: Locale): string {
  return layout(locale, t(locale, 'title'), `<h1>${t(locale, 'notFound')}</h1>`);
}
