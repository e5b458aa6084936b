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

  constructor(readonly page: Page, private readonly shotPrefix: string) {}

  async reach(step: string, timeout?: number): Promise<void> {
    await atStep(this.page, step, timeout);
    // Let the step's camera preview or progress settle before the picture and the audit.
    await this.page.waitForTimeout(300);
    await screenshot(this.page, `${this.shotPrefix}-${step}`);
    const found = await seriousViolations(this.page);
    if (found.length) this.violations[step] = found;
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
    await this.page.locator('[data-action="capture"]:enabled').click();
    await this.action('use-photo').waitFor();
    await screenshot(this.page, `${this.shotPrefix}-${step}-preview`);
    await this.action('use-photo').click();
  }

  /** Chooses a file through the upload button's file chooser (the fallback without a camera). */
  async upload(file: string): Promise<void> {
    const [chooser] = await Promise.all([this.page.waitForEvent('filechooser'), this.action('upload').click()]);
    await chooser.setFiles(file);
  }

  async uploadPhoto(step: string, file: string): Promise<void> {
    await this.reach(step);
    await this.upload(file);
    await this.action('use-photo').click();
  }
}
