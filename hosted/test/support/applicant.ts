import type { Page } from 'playwright-core';
import { seriousViolations } from './axe';
import { atStep, screenshot } from './browser';

/**
 * Walks the applicant's steps the way a person does (buttons found by role and name or by the
 * documented `data-action` hooks), and at each step saves a screenshot and runs axe-core.
 */
export class Applicant {
  /** Serious or critical accessibility violations seen, by step; a test expects this to stay empty. */
  readonly violations: Record<string, string[]> = {};

  /** Capture API answers that were errors, to explain a failure. */
  readonly apiErrors: string[] = [];

  constructor(
    readonly page: Page,
    private readonly shotPrefix: string,
  ) {
    page.on('response', (res) => {
      if (res.status() >= 400 && res.url().includes('/v1/'))
        void res.text().then(
          (body) =>
            this.apiErrors.push(
              `${res.request().method()} ${new URL(res.url()).pathname} ${res.status()} ${body.slice(0, 300)}`,
            ),
          () => undefined,
        );
    });
  }

  /** Waits for `step` (or the first of several) and answers the step reached. */
  async reach(step: string | string[], timeout?: number): Promise<string> {
    let reached: string;
    try {
      reached = await atStep(this.page, step, timeout);
    } catch (error) {
      // Say where the page stood instead, and keep its picture, so a failure explains itself.
      await screenshot(this.page, `${this.shotPrefix}-stuck-before-${[step].flat().join('-or-')}`).catch(
        () => undefined,
      );
      const at = await this.page
        .evaluate(
          () =>
            `${document.body.dataset.step}: ${document.querySelector('main')?.textContent?.replace(/\s+/g, ' ').trim()}`,
        )
        .catch(() => 'unknown');
      const url = new URL(this.page.url());
      const server = await fetch(`${url.origin}/v1/capture/${url.pathname.split('/').pop()}`).then(
        (r) => r.text(),
        (e: Error) => e.message,
      );
      throw new Error(
        `never reached ${[step].flat().join(' or ')}; the page is at ${at}\nthe capture API says ${server}\nAPI errors: ${this.apiErrors.join('\n') || 'none'}\n${(error as Error).message}`,
      );
    }
    // Let the step's camera preview or progress settle before the picture and the audit.
    await this.page.waitForTimeout(300);
    await screenshot(this.page, `${this.shotPrefix}-${reached}`);
    const found = await seriousViolations(this.page);
    if (found.length) this.violations[reached] = found;
    return reached;
  }

  action(name: string) {
    return this.page.locator(`[data-action="${name}"]:visible`).first();
  }

  async startAndChoose(documentType: string): Promise<void> {
    await this.reach('intro');
    await this.action('start').click();
    await this.reach('document-type');
    await this.page.locator(`[data-document-type="${documentType}"]`).click();
  }

  /** Takes the photo with the live camera, then sends it. */
  async photographWithCamera(step: string): Promise<void> {
    await this.reach(step);
    // While the button waits (the camera's start, the selfie's integrity probe) the page says why.
    const waiting = await this.page.evaluate(() => {
      const capture = document.querySelector('[data-action="capture"]');
      const notice = Array.from(document.querySelectorAll('.notice[role="status"]')).some((n) =>
        /camera…|caméra…/.test(n.textContent ?? ''),
      );
      return { disabled: capture?.hasAttribute('disabled') ?? false, notice };
    });
    if (waiting.disabled && !waiting.notice) throw new Error(`${step}: the photo button waits with no word why`);
    const ready = this.page.locator('[data-action="capture"]:enabled');
    await ready.waitFor();
    const stale = await this.page.locator('.notice[role="status"]', { hasText: /camera…|caméra…/ }).count();
    if (stale) throw new Error(`${step}: "preparing the camera" is still shown once the photo can be taken`);
    await ready.click();
    await this.action('use-photo').waitFor();
    await screenshot(this.page, `${this.shotPrefix}-${step}-preview`);
    await this.action('use-photo').click();
  }

  /** Chooses a file through the upload button's file chooser (the fallback without a camera). */
  async upload(file: string): Promise<void> {
    const [chooser] = await Promise.all([this.page.waitForEvent('filechooser'), this.action('upload').click()]);
    await chooser.setFiles(file);
  }

  async uploadPhoto(step: string, file: string, timeout?: number): Promise<void> {
    await this.reach(step, timeout);
    await this.upload(file);
    await this.action('use-photo').click();
  }
}
