import type { CaptureClient, CaptureState } from './capture-client';

/**
 * Calls `onState` with each state (status and coarse step) the server streams (Server-Sent Events
 * of `/progress/events`, which need no capture token, so the desktop that handed off can follow the
 * phone); if the stream cannot be held (a proxy that buffers, say), polls instead. Returns a
 * function that stops following.
 */
export function followSession(client: CaptureClient, onState: (state: CaptureState) => void): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const source = new EventSource(client.progressEventsUrl);
  const poll = async () => {
    if (stopped) return;
    try {
      onState(await client.progress());
    } catch {
      // the next poll retries
    }
    timer = setTimeout(() => void poll(), 3000);
  };
  source.onmessage = (event) => {
    try {
      onState(JSON.parse(event.data as string) as CaptureState);
    } catch {
      // a malformed event is ignored; the next one carries the whole state again
    }
  };
  source.onerror = () => {
    if (source.readyState !== EventSource.CLOSED || stopped || timer) return;
    void poll();
  };
  return () => {
    stopped = true;
    source.close();
    if (timer) clearTimeout(timer);
  };
}
