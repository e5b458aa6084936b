/** Escapes text for HTML element and attribute content. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

export interface LayoutExtras {
  /** data-* attributes on <body>, read by the page's script (no inline script: the CSP forbids it). */
  bodyData?: Record<string, string>;
  scripts?: string[];
}

export function layout(lang: string, title: string, body: string, extras: LayoutExtras = {}): string {
  const data = Object.entries(extras.bodyData ?? {})
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('');
  const scripts = (extras.scripts ?? []).map((src) => `<script src="${escapeHtml(src)}" defer></script>\n`).join('');
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/hosted/hosted.css">
${scripts}</head>
<body${data}>
<header></header>
<main>
${body}
</main>
</body>
</html>`;
}
