import { escapeHtml, layout } from './html';
import { Locale, t } from './messages';

export interface CredentialPageInput {
  locale: Locale;
  valid: boolean;
  name: string;
  document_type: string;
  document_country: string;
  verified_until: string;
}

/** /c/{session_id}: the same facts as GET /v1/credentials/{token}, for a person to read. */
export function renderCredentialPage(input: CredentialPageInput): string {
  const { locale } = input;
  return layout(
    locale,
    t(locale, 'credentialTitle'),
    `<h1>${t(locale, 'credentialTitle')}</h1>
<p class="validity ${input.valid ? 'valid' : 'invalid'}">${t(locale, input.valid ? 'credentialValid' : 'credentialInvalid')}</p>
<dl>
  <dt>${t(locale, 'name')}</dt><dd class="name">${escapeHtml(input.name)}</dd>
  <dt>${t(locale, 'document')}</dt><dd class="document">${escapeHtml(input.document_type)} · ${escapeHtml(input.document_country)}</dd>
  <dt>${t(locale, 'validUntil')}</dt><dd class="until">${escapeHtml(input.verified_until.slice(0, 10))}</dd>
</dl>`,
  );
}
