import type { Browser, BrowserContext } from 'playwright-core';
import type { components } from '../../web/generated/openapi-types';
import { DESKTOP, launchBrowser } from '../../../scripts/test-support/browser';
import { CaptureStack } from '../../../api/test/capture/support/capture-stack';
import { Applicant } from './applicant';
import { atStep, phoneContext, screenshot, StorageState } from './browser';
import { CameraFiles, challengeScene, documentImage, faceImage } from './camera-files';

// Synthetic passport 001 carries the astronaut's portrait (inference/tools/testdata/documents/labels.json).
export const PASSPORT = 'synthetic-td3-passport-clean-001.jpg';
export const HOLDER = 'TOMAS OESTERGAARD';
export const CHALLENGE = ['TURN_LEFT', 'TURN_RIGHT', 'BLINK'];
export const RETURN_URL = 'https://shop.example/kyc/done';

type SessionResult = components['schemas']['SessionResult'];

/** A 503 means the checks were briefly unavailable and nothing was stored: send again, as the page does. */
export async function whenAvailable<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send();
    if (answer.status !== 503 || attempt === 3) return answer;
    await new Promise((r) => setTimeout(r, 2000 * attempt));
  }
}

/** The integrator's return page, answered inside the browser: nothing leaves this machine. */
export async function serveReturnPage(context: BrowserContext): Promise<void> {
  await context.route('https://shop.example/**', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><title>Shop</title><h1>Back at the shop</h1>',
    }),
  );
}

/**
 * The real stack (real models) and the browsers and fake-camera files a hosted-flow test opens,
 * all closed by stop().
 */
export class HostedFlow {
  readonly camera = new CameraFiles();
  private readonly browsers: Browser[] = [];

  private constructor(readonly stack: CaptureStack) {}

  static async start(): Promise<HostedFlow> {
    return new HostedFlow(await CaptureStack.start());
  }

  async stop(): Promise<void> {
    await Promise.all(this.browsers.map((b) => b.close()));
    await this.stack.stop();
    this.camera.cleanup();
  }

  async browserWith(options: Parameters<typeof launchBrowser>[0]): Promise<Browser> {
    const browser = await launchBrowser(options);
    this.browsers.push(browser);
    return browser;
  }

  /** A page on a phone in a browser of its own (its camera as `camera` says), the return page served. */
  async phonePage(camera: Parameters<typeof launchBrowser>[0], prefix: string): Promise<Applicant> {
    const context = await phoneContext(await this.browserWith(camera));
    await serveReturnPage(context);
    return new Applicant(await context.newPage(), prefix);
  }

  /** A desktop browser's context, in a browser of its own with no camera. */
  async desktopContext(): Promise<BrowserContext> {
    return (await this.browserWith({})).newContext(DESKTOP);
  }

  /** The stack's account is issued with both keys; its support type names only the sandbox one. */
  get liveApiKey(): string {
    return (this.stack.stack.account as unknown as { live_api_key: string }).live_api_key;
  }

  /** A sandbox session with the challenge pinned; the page is opened on the API's real address. */
  async newSession(overrides: Record<string, unknown> = {}) {
    const id = await this.stack.session({
      return_url: RETURN_URL,
      expected_name: HOLDER,
      sandbox: { liveness_challenge: CHALLENGE },
      ...overrides,
    });
    return { session_id: id, verification_url: `${this.stack.baseUrl}/v/${id}` };
  }

  /** A production session (the server-paced challenge); production takes only https webhooks, here a closed port. */
  async newProductionSession() {
    const id = await this.stack.session(
      { return_url: RETURN_URL, expected_name: HOLDER, webhook_url: 'https://127.0.0.1:9/hook' },
      this.liveApiKey,
    );
    return { session_id: id, verification_url: `${this.stack.baseUrl}/v/${id}` };
  }

  async result(id: string, apiKey?: string): Promise<SessionResult> {
    return (await this.stack.api('GET', `/v1/sessions/${id}/result`, apiKey)).body as SessionResult;
  }

  /**
   * One browser per camera scene (the fake camera's file is fixed at launch): the document, then the
   * liveness challenge, then the selfie. The capture token travels as a phone keeps it, in storage.
   */
  async captureOnPhone(
    verificationUrl: string,
    face: string,
    prefix: string,
    selfie = `${face}__augmented-1.jpg`,
    liveness: 'pinned' | 'paced' = 'pinned',
  ): Promise<Applicant> {
    const documentCamera = await this.browserWith({
      file: await this.camera.still(documentImage(PASSPORT), 1440, 1080),
    });
    let context = await phoneContext(documentCamera);
    let applicant = new Applicant(await context.newPage(), prefix);
    await applicant.page.goto(verificationUrl);
    await applicant.startAndChoose('passport');
    await applicant.photographWithCamera('document-front');
    await applicant.reach('liveness', 120_000);
    let storage: StorageState = await context.storageState();
    await documentCamera.close();

    const livenessCamera = await this.browserWith({
      file: await this.camera.y4m(challengeScene(face, CHALLENGE), 640, 480),
    });
    context = await phoneContext(livenessCamera, storage);
    applicant = new Applicant(await context.newPage(), prefix);
    await applicant.page.goto(verificationUrl);
    await applicant.action('start').click();
    await atStep(applicant.page, 'liveness');
    await applicant.action('start').click();
    if (liveness === 'paced') {
      // Steps come one at a time, drawn by the server; the non-rigid one is never the first.
      await applicant.page.waitForSelector('[data-challenge="HOLD_POSE"]', { timeout: 30_000 });
      await screenshot(applicant.page, `${prefix}-paced-hold-pose`);
      await applicant.page.waitForSelector('[data-challenge="OPEN_MOUTH"]', { timeout: 90_000 });
      await screenshot(applicant.page, `${prefix}-paced-open-mouth`);
    } else {
      await applicant.page.waitForSelector('[data-challenge="BLINK"]', { timeout: 30_000 });
      await screenshot(applicant.page, `${prefix}-liveness-challenge`);
    }
    await applicant.reach('selfie', 180_000);
    storage = await context.storageState();
    await livenessCamera.close();

    const selfieCamera = await this.browserWith({ file: await this.camera.still(faceImage(selfie), 960, 720) });
    context = await phoneContext(selfieCamera, storage);
    await serveReturnPage(context);
    applicant = new Applicant(await context.newPage(), prefix);
    await applicant.page.goto(verificationUrl);
    await applicant.action('start').click();
    await applicant.photographWithCamera('selfie');
    // The selfie upload scores every check, so the decision can come within a moment of submit
    // and "checking" may flash by before it is seen.
    await applicant.reach(['checking', 'done'], 60_000);
    return applicant;
  }

  /** The webhook copy the receiver got for the session, waiting up to 30 s for it. */
  async webhookFor(sessionId: string) {
    for (let i = 0; i < 150; i++) {
      const copy = this.stack.stack.receiver.copies.find((c) => c.sessionId === sessionId);
      if (copy) return copy;
      await new Promise((r) => setTimeout(r, 200));
    }
    return undefined;
  }
}
