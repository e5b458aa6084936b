import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { PHONE } from '../../../scripts/test-support/browser';

export const ARTIFACTS = path.resolve(__dirname, '../artifacts');

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

export async function phoneContext(browser: Browser, storageState?: StorageState): Promise<BrowserContext> {
  return browser.newContext({ ...PHONE, storageState });
}

/** Resolves once the page shows `step` (the `body[data-step]` hook). */
/** Waits for `step`, or for the first of several (a step that may flash by too fast to see). */
export async function atStep(page: Page, step: string | string[], timeout = 30_000): Promise<string> {
  const steps = Array.isArray(step) ? step : [step];
  await page.waitForSelector(steps.map((s) => `body[data-step="${s}"]`).join(', '), { timeout });
  return page.evaluate(() => document.body.dataset.step ?? '');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}
