/*
 * Bioverify web widget (served at /widget.js): frames the hosted flow and relays its events.
 * Create the session on your backend and pass its verificationUrl. A sandbox apiKey may create the
 * session from the browser for quick trials; a production key never works here.
 */
interface WidgetEvent {
  source: 'bioverify';
  type: 'step' | 'complete' | 'cancel' | 'resize';
  session_id: string;
  step?: string;
  status?: string;
  height?: number;
  redirect_url?: string | null;
}

export interface WidgetOptions {
  containerId: string;
  verificationUrl?: string;
  apiKey?: string;
  returnUrl?: string;
  webhookUrl?: string;
  cancelUrl?: string;
  locale?: 'en' | 'fr';
  expectedName?: string;
  theme?: { accentColor?: string; logo?: string };
  onStep?: (event: WidgetEvent) => void;
  onComplete?: (event: WidgetEvent) => void;
  onCancel?: (event: WidgetEvent) => void;
}

export interface WidgetHandle {
  destroy(): void;
  ready: Promise<HTMLIFrameElement | null>;
}

/** The origin that served this script: the only origin whose messages the widget believes. */
const scriptOrigin = (() => {
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  return src ? new URL(src).origin : window.location.origin;
})();

/** POST /v1/sessions answers the created session (201) or the error shape. */
interface CreatedOrRefused {
  session_id?: string;
  error?: { code?: string; details?: Array<{ field: string; message: string }> };
}

/**
 * Quick trials only: creates a sandbox session from the browser (the API answers CORS on
 * POST /v1/sessions for sandbox keys alone). The return URL defaults to this page, which is then
 * also the origin allowed to frame the flow and to receive its events.
 */
async function sandboxSession(options: WidgetOptions): Promise<string> {
  const res = await fetch(`${scriptOrigin}/v1/sessions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Api-Key': options.apiKey as string },
    body: JSON.stringify({
      return_url: options.returnUrl ?? window.location.href,
      webhook_url: options.webhookUrl,
      expected_name: options.expectedName,
      locale: options.locale,
    }),
    credentials: 'omit',
  });
  const body = (await res.json().catch(() => null)) as CreatedOrRefused | null;
  if (!res.ok) {
    const fields = (body?.error?.details ?? []).map((d) => `${d.field} ${d.message}`).join('; ');
    throw new Error(
      `Bioverify: session not created (${body?.error?.code ?? res.status}${fields ? `: ${fields}` : ''})`,
    );
  }
  // The hosted page is served by the origin that made the session (the contract's one origin), and
  // it is the only origin whose messages this script believes: frame the session there.
  return `${scriptOrigin}/v/${encodeURIComponent(body!.session_id as string)}`;
}

function frameFor(container: HTMLElement, verificationUrl: string, options: WidgetOptions): HTMLIFrameElement {
  const url = new URL(verificationUrl);
  if (options.locale) url.searchParams.set('locale', options.locale);
  if (options.theme?.accentColor) url.searchParams.set('accent', options.theme.accentColor);
  if (options.theme?.logo) url.searchParams.set('logo', options.theme.logo);
  const frame = document.createElement('iframe');
  frame.src = url.toString();
  frame.title = options.locale === 'fr' ? "Vérification d'identité" : 'Identity verification';
  frame.allow = 'camera; fullscreen';
  frame.style.cssText = 'width:100%;height:640px;border:0;display:block';
  container.appendChild(frame);
  return frame;
}

function listen(frame: HTMLIFrameElement, options: WidgetOptions): () => void {
  const frameOrigin = new URL(frame.src).origin;
  const onMessage = (event: MessageEvent) => {
    // Only the hosted page in our own frame may drive the callbacks; any other window is ignored.
    if (event.origin !== frameOrigin || event.source !== frame.contentWindow) return;
    const data = event.data as WidgetEvent;
    if (!data || data.source !== 'bioverify') return;
    if (data.type === 'resize' && typeof data.height === 'number' && data.height > 0)
      frame.style.height = `${Math.ceil(data.height)}px`;
    else if (data.type === 'step') options.onStep?.(data);
    else if (data.type === 'complete') options.onComplete?.(data);
    else if (data.type === 'cancel') {
      options.onCancel?.(data);
      if (options.cancelUrl) window.location.assign(options.cancelUrl);
    }
  };
  window.addEventListener('message', onMessage);
  return () => window.removeEventListener('message', onMessage);
}

export function init(options: WidgetOptions): WidgetHandle | null {
  if (!options?.containerId) throw new Error('Bioverify.init: containerId is required');
  if (options.apiKey?.startsWith('vk_live_')) {
    console.error(
      'Bioverify.init: a production API key must never be used in a browser. Create the session on your backend and pass verificationUrl.',
    );
    return null;
  }
  const container = document.getElementById(options.containerId);
  if (!container) throw new Error(`Bioverify.init: no element with id ${options.containerId}`);
  let frame: HTMLIFrameElement | null = null;
  let unlisten = () => undefined as void;
  const ready = (async () => {
    const url = options.verificationUrl ?? (options.apiKey ? await sandboxSession(options) : null);
    if (!url) throw new Error('Bioverify.init: verificationUrl is required (create the session on your backend)');
    frame = frameFor(container, url, options);
    unlisten = listen(frame, options);
    return frame;
  })();
  ready.catch((error: Error) => console.error(error.message));
  return {
    ready,
    destroy() {
      unlisten();
      frame?.remove();
    },
  };
}
