import type { Response } from 'express';

/**
 * Headers of the applicant's page: scripts and connections to this origin only (the capture API and
 * its event stream), camera allowed here and in frames the integrator grants with allow="camera",
 * images from blob: (previews) and https (an integrator's logo), framing by the return_url's origin
 * or any https page (the widget).
 */
export function setHostedPageHeaders(res: Response, parentOrigin: string | null): void {
  const ancestors = ["'self'", 'https:', parentOrigin].filter(Boolean).join(' ');
  res.setHeader(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: blob: https:",
      "media-src 'self' blob: mediastream:",
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      `frame-ancestors ${ancestors}`,
    ].join('; '),
  );
  res.setHeader('Permissions-Policy', 'camera=(self), microphone=(), geolocation=()');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
}

/** The origin of an http(s) URL, or null (the page then posts no widget events). */
export function originOf(url: string | undefined): string | null {
  try {
    const parsed = new URL(url ?? '');
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}
