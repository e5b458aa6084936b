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
export async function atStep(page: Page, step: string, timeout = 30_000): Promise<void> {
  await page.waitForSelector(`body[data-step="${step}"]`, { timeout });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}
