import { seriousViolations } from './axe';
import type { Applicant } from './applicant';
import { screenshot } from './browser';

/**
 * Waits until the desktop's hand-off page shows the phone on `step`, keeps its picture and its
 * accessibility violations, and answers the progress list's states and the status line.
 */
export async function phoneAt(desktop: Applicant, step: string) {
  await desktop.page.waitForSelector(`.handoff-progress[data-progress="${step}"]`, { timeout: 30_000 });
  await screenshot(desktop.page, `desktop-progress-${step}`);
  const found = await seriousViolations(desktop.page);
  if (found.length) desktop.violations[`progress-${step}`] = found;
  return {
    list: await desktop.page.$$eval('.handoff-progress [data-progress-step]', (items) =>
      items.map((i) => `${(i as HTMLElement).dataset.progressStep}: ${i.querySelector('.state')?.textContent}`),
    ),
    status: await desktop.page.locator('.handoff-status').textContent(),
  };
}
