import type { Locale } from './messages';

export interface PageConfig {
  sessionId: string;
  locale: Locale;
  /** Origin of the session's return_url: the only window the page talks to when framed. */
  parentOrigin: string | null;
  embedded: boolean;
  /** A desktop opens on the QR hand-off unless the applicant chose to continue there. */
  desktop: boolean;
}

/** The server-rendered shell carries the session's facts as data attributes (no inline script). */
export function readPageConfig(body: HTMLElement, win: Window): PageConfig {
  const data = body.dataset;
  const params = new URLSearchParams(win.location.search);
  const wide = win.matchMedia('(min-width: 900px) and (pointer: fine)').matches;
  return {
    sessionId: data.sessionId ?? '',
    locale: data.locale === 'fr' ? 'fr' : 'en',
    parentOrigin: data.parentOrigin || null,
    embedded: win.parent !== win,
    desktop: wide && params.get('here') !== '1',
  };
}

/** Integrator theme passed by the widget in the URL; anything that is not a plain colour or an https/same-origin logo is ignored. */
export function applyTheme(doc: Document, win: Window): void {
  const params = new URLSearchParams(win.location.search);
  const accent = params.get('accent');
  if (accent && /^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(accent)) doc.documentElement.style.setProperty('--accent', accent);
  const logo = params.get('logo');
  if (!logo) return;
  try {
    const url = new URL(logo, win.location.href);
    if (url.protocol !== 'https:' && url.origin !== win.location.origin) return;
    const img = doc.createElement('img');
    img.src = url.toString();
    img.alt = '';
    img.className = 'brand-logo';
    doc.querySelector('header')?.appendChild(img);
  } catch {
    // not a URL: no logo
  }
}
