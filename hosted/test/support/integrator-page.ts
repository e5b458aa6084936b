import type { Page } from 'playwright-core';

/*
 * The integrator's page in a test: what the embedded widget told it, what it logged and sent, and
 * calls it makes to the API itself.
 */

/** The events the demo integrator page collected from the widget, in order. */
export const events = (page: Page) =>
  page.evaluate(() => (window as unknown as { bioverifyEvents: Array<Record<string, unknown>> }).bioverifyEvents);

/** Resolves once the widget has relayed a `complete` event to the integrator page. */
export const completed = (page: Page, timeout: number) =>
  page.waitForFunction(
    () =>
      (window as unknown as { bioverifyEvents: Array<{ type: string }> }).bioverifyEvents.some(
        (e) => e.type === 'complete',
      ),
    undefined,
    { timeout },
  );

/** Console errors the page logs that mention `text`, collected from now on. */
export function consoleErrorsMentioning(page: Page, text: string): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes(text)) errors.push(message.text());
  });
  return errors;
}

/** The methods of the requests the page sends to URLs containing `path`, collected from now on. */
export function requestsTo(page: Page, path: string): string[] {
  const methods: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(path)) methods.push(request.method());
  });
  return methods;
}

/** Resolves on the first console error that mentions `text`. */
export const consoleError = (page: Page, text: string, timeout: number) =>
  page.waitForEvent('console', {
    predicate: (message) => message.type() === 'error' && message.text().includes(text),
    timeout,
  });

/** The integrator page creates a session itself with `key`: answers the status and the RateLimit-Remaining it could read. */
export const createSession = (page: Page, api: string, key: string) =>
  page.evaluate(
    async ([api, key]) => {
      const res = await fetch(`${api}/v1/sessions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Api-Key': key },
        body: JSON.stringify({
          return_url: `${location.origin}/done`,
          webhook_url: `${location.origin}/webhook`,
          expected_name: 'Demo Applicant',
        }),
      });
      return [res.status, res.headers.get('RateLimit-Remaining')];
    },
    [api, key],
  );

/** The same call answered as the page saw it: `answered <status>`, or `blocked: <error>` when the browser withheld the response. */
export const sessionAnswer = (page: Page, api: string, key: string) =>
  page.evaluate(
    async ([api, key]) => {
      try {
        const res = await fetch(`${api}/v1/sessions`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Api-Key': key },
          body: JSON.stringify({
            return_url: `${location.origin}/done`,
            webhook_url: 'https://shop.example/webhook',
            expected_name: 'Demo Applicant',
          }),
        });
        return `answered ${res.status}`;
      } catch (error) {
        return `blocked: ${(error as Error).name}`;
      }
    },
    [api, key],
  );
