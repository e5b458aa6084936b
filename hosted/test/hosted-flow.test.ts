import type { Browser, BrowserContext } from 'playwright-core';
import { Applicant } from './support/applicant';
import { seriousViolations } from './support/axe';
import { DESKTOP, launchBrowser } from '../../scripts/test-support/browser';
import { atStep, phoneContext, screenshot, StorageState } from './support/browser';
import { CameraFiles, challengeScene, documentImage, faceImage } from './support/camera-files';
import { startWidgetDemo, WidgetDemo } from '../demo/widget-demo-server';
import { CaptureClient } from '../../api/test/capture/support/capture-client';
import { CaptureStack } from '../../api/test/capture/support/capture-stack';
import { documentOf, livenessOf, selfieOf } from '../../api/test/capture/support/applicant-files';

// Synthetic passport 001 carries the astronaut's portrait (inference/tools/testdata/documents/labels.json).
const PASSPORT = 'synthetic-td3-passport-clean-001.jpg';
const HOLDER = 'TOMAS OESTERGAARD';
const CHALLENGE = ['TURN_LEFT', 'TURN_RIGHT', 'BLINK'];
const RETURN_URL = 'https://shop.example/kyc/done';

jest.setTimeout(300_000);

/** A 503 means the checks were briefly unavailable and nothing was stored: send again, as the page does. */
async function whenAvailable<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send();
    if (answer.status !== 503 || attempt === 3) return answer;
    await new Promise((r) => setTimeout(r, 2000 * attempt));
  }
}

/** The integrator's return page, answered inside the browser: nothing leaves this machine. */
async function serveReturnPage(context: BrowserContext): Promise<void> {
  await context.route('https://shop.example/**', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><title>Shop</title><h1>Back at the shop</h1>',
    }),
  );
}

describe('the applicant completes the hosted flow in a real browser with a (fake) camera', () => {
  let stack: CaptureStack;
  const camera = new CameraFiles();
  const browsers: Browser[] = [];

  beforeAll(async () => {
    stack = await CaptureStack.start();
  }, 180_000);
  afterAll(async () => {
    await Promise.all(browsers.map((b) => b.close()));
    await stack?.stop();
    camera.cleanup();
  });

  const browserWith = async (options: Parameters<typeof launchBrowser>[0]) => {
    const browser = await launchBrowser(options);
    browsers.push(browser);
    return browser;
  };

  /** A sandbox session with the challenge pinned; the page is opened on the API's real address. */
  async function newSession(overrides: Record<string, unknown> = {}) {
    const id = await stack.session({
      return_url: RETURN_URL,
      expected_name: HOLDER,
      sandbox: { liveness_challenge: CHALLENGE },
      ...overrides,
    });
    return { session_id: id, verification_url: `${stack.baseUrl}/v/${id}` };
  }

  const result = async (id: string) => (await stack.api('GET', `/v1/sessions/${id}/result`)).body;

  /**
   * One browser per camera scene (the fake camera's file is fixed at launch): the document, then the
   * liveness challenge, then the selfie. The capture token travels as a phone keeps it, in storage.
   */
  async function captureOnPhone(
    verificationUrl: string,
    face: string,
    prefix: string,
    selfie = `${face}__augmented-1.jpg`,
  ): Promise<Applicant> {
    const documentCamera = await browserWith({
      file: await camera.still(documentImage(PASSPORT), 1440, 1080),
    });
    let context = await phoneContext(documentCamera);
    let applicant = new Applicant(await context.newPage(), prefix);
    await applicant.page.goto(verificationUrl);
    await applicant.startAndChoose('passport');
    await applicant.photographWithCamera('document-front');
    await applicant.reach('liveness', 120_000);
    let storage: StorageState = await context.storageState();
    await documentCamera.close();

    const livenessCamera = await browserWith({
      file: await camera.y4m(challengeScene(face, CHALLENGE), 640, 480),
    });
    context = await phoneContext(livenessCamera, storage);
    applicant = new Applicant(await context.newPage(), prefix);
    await applicant.page.goto(verificationUrl);
    await applicant.action('start').click();
    await atStep(applicant.page, 'liveness');
    await applicant.action('start').click();
    await applicant.page.waitForSelector('[data-challenge="BLINK"]', { timeout: 30_000 });
    await screenshot(applicant.page, `${prefix}-liveness-challenge`);
    await applicant.reach('selfie', 180_000);
    storage = await context.storageState();
    await livenessCamera.close();

    const selfieCamera = await browserWith({ file: await camera.still(faceImage(selfie), 960, 720) });
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

  async function webhookFor(sessionId: string) {
    for (let i = 0; i < 150; i++) {
      const copy = stack.stack.receiver.copies.find((c) => c.sessionId === sessionId);
      if (copy) return copy;
      await new Promise((r) => setTimeout(r, 200));
    }
    return undefined;
  }

  it('verifies the document holder on a phone, then returns to return_url with session_id and status, and the webhook arrives signed', async () => {
    const session = await newSession();
    const applicant = await captureOnPhone(session.verification_url, 'astronaut', 'phone');
    await applicant.reach('done', 180_000);
    expect(await applicant.page.locator('.outcome').getAttribute('data-status')).toBe('VERIFIED');

    await applicant.page.waitForURL((url) => url.href.startsWith(RETURN_URL), { timeout: 15_000 });
    const returned = new URL(applicant.page.url());
    expect([returned.searchParams.get('session_id'), returned.searchParams.get('status')]).toEqual([
      session.session_id,
      'VERIFIED',
    ]);

    const decided = await result(session.session_id);
    expect({ status: decided.status, failure_reason: decided.failure_reason }).toEqual({
      status: 'VERIFIED',
      failure_reason: null,
    });
    const copy = await webhookFor(session.session_id);
    expect(copy).toBeDefined();
    expect({
      status: copy?.status,
      bio: copy?.bioSignatureValid,
      standard: copy?.standardSignatureValid,
    }).toEqual({ status: 'VERIFIED', bio: true, standard: true });
    expect(applicant.violations).toEqual({});
  });

  it("fails with FACE_MATCH_BELOW_THRESHOLD when another person's face follows the challenge and takes the selfie, and shows the outcome", async () => {
    const session = await newSession();
    // Another person performs the challenge and takes the selfie (liveness passes: the selfie is the
    // performer), so what fails is the match with the document's portrait. Not grace-hopper: her
    // portrait is a scan of a printed photograph, which the PAD model rightly calls a recapture.
    const applicant = await captureOnPhone(session.verification_url, 'bearded-man', 'other-face');
    await applicant.reach('done', 180_000);
    expect(await applicant.page.locator('.outcome').getAttribute('data-status')).toBe('FAILED');
    const decided = await result(session.session_id);
    expect({ status: decided.status, failure_reason: decided.failure_reason }).toEqual({
      status: 'FAILED',
      failure_reason: 'FACE_MATCH_BELOW_THRESHOLD',
    });
  });

  it('completes in French by uploads when the camera is refused: a document photo, a recorded challenge video and a selfie', async () => {
    const session = await newSession({ locale: 'fr' });
    const browser = await browserWith({ denied: true });
    const context = await phoneContext(browser);
    await serveReturnPage(context);
    const applicant = new Applicant(await context.newPage(), 'fr-denied');
    await applicant.page.goto(session.verification_url);
    expect(await applicant.page.getAttribute('html', 'lang')).toBe('fr');
    await applicant.startAndChoose('passport');
    await applicant.reach('document-front');
    await applicant.page.getByRole('alert').filter({ hasText: 'caméra' }).first().waitFor();
    await screenshot(applicant.page, 'fr-denied-document-front-refused');
    await applicant.upload(documentImage(PASSPORT));
    await applicant.action('use-photo').click();

    await applicant.reach('liveness', 120_000);
    await applicant.action('start').click();
    await applicant.page.getByRole('button', { name: 'Enregistrer une vidéo à la place' }).waitFor();
    await screenshot(applicant.page, 'fr-denied-liveness-refused');
    await applicant.upload(await camera.webm(challengeScene('astronaut', CHALLENGE), 640, 480));

    await applicant.uploadPhoto('selfie', faceImage('astronaut__augmented-1.jpg'), 180_000);
    await applicant.reach('done', 180_000);
    expect(await applicant.page.locator('.outcome').textContent()).toBe('Merci : votre identité est vérifiée.');
    expect((await result(session.session_id)).status).toBe('VERIFIED');
    expect(applicant.violations).toEqual({});
  });

  it("on a desktop shows the QR hand-off, then follows the phone's progress step by step, then checking and the outcome, and continues to return_url", async () => {
    const session = await newSession();
    const browser = await browserWith({});
    const context = await browser.newContext(DESKTOP);
    await serveReturnPage(context);
    const desktop = new Applicant(await context.newPage(), 'desktop');
    await desktop.page.goto(session.verification_url);
    await desktop.reach('handoff');
    expect(await desktop.page.locator('#handoff-qr svg').isVisible()).toBe(true);
    expect(await desktop.page.getByRole('button', { name: 'Continue on this computer' }).isVisible()).toBe(true);

    /** Waits until the desktop shows the phone on `step`, keeps its picture, and answers the list's states. */
    const phoneAt = async (step: string) => {
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
    };
    expect(await phoneAt('waiting')).toEqual({
      list: ['document: to do', 'liveness: to do', 'selfie: to do'],
      status: 'Waiting for your phone…',
    });

    // The phone, reduced to what it sends: the capture API over HTTP.
    const phone = new CaptureClient(stack.baseUrl, session.session_id);
    await phone.start();
    expect(await phoneAt('document')).toEqual({
      list: ['document: in progress', 'liveness: to do', 'selfie: to do'],
      status: 'On your phone: photographing the document.',
    });
    const sequence = livenessOf('astronaut', 'synthetic-performs-challenge');
    expect(sequence.challenge).toEqual(CHALLENGE);
    expect(
      (await whenAvailable(() => phone.document('front', 'passport', documentOf('TD3', 'clean', 'astronaut').image)))
        .body,
    ).toMatchObject({ readable: true });
    expect(await phoneAt('liveness')).toEqual({
      list: ['document: done', 'liveness: in progress', 'selfie: to do'],
      status: 'On your phone: following the face movements.',
    });
    expect((await whenAvailable(() => phone.liveness(sequence.frames))).body).toMatchObject({
      retake: false,
    });
    expect((await phoneAt('selfie')).list).toEqual(['document: done', 'liveness: done', 'selfie: in progress']);
    expect((await whenAvailable(() => phone.selfie(selfieOf('astronaut')))).body).toMatchObject({
      face_found: true,
    });
    expect((await phoneAt('submit')).list).toEqual(['document: done', 'liveness: done', 'selfie: done']);
    await phone.submit();

    await desktop.reach(['checking', 'done'], 30_000);
    await desktop.reach('done', 180_000);
    expect(await desktop.page.locator('.outcome').getAttribute('data-status')).toBe('VERIFIED');
    await desktop.page.waitForURL((url) => url.href.startsWith(RETURN_URL), { timeout: 15_000 });
    expect(new URL(desktop.page.url()).searchParams.get('status')).toBe('VERIFIED');
    expect(desktop.violations).toEqual({});
  });

  describe('the widget on an integrator page of another origin', () => {
    let demo: WidgetDemo;
    beforeAll(async () => {
      demo = await startWidgetDemo({ apiBase: stack.baseUrl });
    });
    afterAll(() => demo?.stop());

    it('relays step and complete with their payloads, resizes its frame, and ignores a message from a foreign origin', async () => {
      const session = await newSession({ return_url: `${demo.url}/done` });
      const browser = await browserWith({});
      const page = await (await browser.newContext(DESKTOP)).newPage();
      const events = () =>
        page.evaluate(() => (window as unknown as { bioverifyEvents: Array<Record<string, unknown>> }).bioverifyEvents);
      await page.goto(`${demo.url}/?verification_url=${encodeURIComponent(session.verification_url)}`);
      const frame = page.frameLocator('iframe');
      await frame.locator('body[data-step="intro"]').waitFor();
      await page.waitForFunction(() => document.querySelector('iframe')?.style.height !== '640px');
      const height = await page.evaluate(() => document.querySelector('iframe')?.getBoundingClientRect().height);
      const contentHeight = await frame.locator('html').evaluate((html) => html.scrollHeight);
      expect(Math.abs((height ?? 0) - contentHeight)).toBeLessThanOrEqual(2);

      await frame.getByRole('button', { name: 'Start' }).click();
      await frame.locator('body[data-step="document-type"]').waitFor();
      await screenshot(page, 'widget-document-type');
      // The integrator's own page (not the API's origin) posting a look-alike event is ignored.
      await page.evaluate(
        (id) => window.postMessage({ source: 'bioverify', type: 'complete', session_id: id, status: 'VERIFIED' }, '*'),
        session.session_id,
      );
      await page.waitForTimeout(300);
      expect((await events()).filter((e) => e.type === 'complete')).toEqual([]);

      const simulated = await fetch(`${stack.baseUrl}/v1/sessions/${session.session_id}/simulate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Api-Key': stack.apiKey },
        body: JSON.stringify({ outcome: 'VERIFIED' }),
      });
      expect(simulated.status).toBe(200);
      await page.waitForFunction(
        () =>
          (window as unknown as { bioverifyEvents: Array<{ type: string }> }).bioverifyEvents.some(
            (e) => e.type === 'complete',
          ),
        undefined,
        { timeout: 30_000 },
      );
      await screenshot(page, 'widget-complete');
      const seen = await events();
      expect(seen.filter((e) => e.type === 'step').map((e) => e.step)).toEqual(['intro', 'document-type', 'done']);
      expect(seen.find((e) => e.type === 'step')).toEqual({
        source: 'bioverify',
        type: 'step',
        session_id: session.session_id,
        step: 'intro',
      });
      expect(seen.filter((e) => e.type === 'complete')).toEqual([
        {
          source: 'bioverify',
          type: 'complete',
          session_id: session.session_id,
          status: 'VERIFIED',
          redirect_url: `${demo.url}/done?session_id=${session.session_id}&status=VERIFIED`,
        },
      ]);
    });

    it('creates the session from the page with a sandbox apiKey and runs the flow, and refuses a production key with a console error', async () => {
      const browser = await browserWith({});
      const page = await (await browser.newContext(DESKTOP)).newPage();
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && message.text().includes('Bioverify')) consoleErrors.push(message.text());
      });
      const events = () =>
        page.evaluate(() => (window as unknown as { bioverifyEvents: Array<Record<string, unknown>> }).bioverifyEvents);

      await page.goto(`${demo.url}/?api_key=${stack.apiKey}`);
      const frame = page.frameLocator('iframe');
      await frame.locator('body[data-step="intro"]').waitFor({ timeout: 30_000 });
      await frame.getByRole('button', { name: 'Start' }).click();
      await frame.locator('body[data-step="document-type"]').waitFor();
      await screenshot(page, 'widget-sandbox-key-document-type');
      const sessionId = new URL((await page.locator('iframe').getAttribute('src')) as string).pathname
        .split('/')
        .pop() as string;
      expect((await stack.api('GET', `/v1/sessions/${sessionId}`)).body).toMatchObject({
        session_id: sessionId,
        status: 'IN_PROGRESS',
        environment: 'sandbox',
      });
      expect((await events()).filter((e) => e.type === 'step')).toEqual([
        { source: 'bioverify', type: 'step', session_id: sessionId, step: 'intro' },
        { source: 'bioverify', type: 'step', session_id: sessionId, step: 'document-type' },
      ]);
      // The page reads the answer's rate-limit headers: the API exposes them to other origins.
      const remaining = await page.evaluate(
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
        [stack.baseUrl, stack.apiKey],
      );
      expect(remaining[0]).toBe(201);
      expect(Number(remaining[1])).toBeGreaterThan(0);
      expect(consoleErrors).toEqual([]);

      // The stack's account is issued with both keys; its support type names only the sandbox one.
      const live = (stack.stack.account as unknown as { live_api_key: string }).live_api_key;
      const sessionRequests: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/v1/sessions')) sessionRequests.push(request.method());
      });
      const refusal = page.waitForEvent('console', {
        predicate: (message) => message.type() === 'error' && message.text().includes('production API key'),
        timeout: 15_000,
      });
      await page.goto(`${demo.url}/?api_key=${live}`);
      await refusal;
      await page.waitForTimeout(500);
      expect(await page.locator('iframe').count()).toBe(0);
      expect(sessionRequests).toEqual([]);
      // A page that calls the API itself with the production key cannot read an answer either: the
      // API refuses it (403, no CORS headers) and the browser blocks the response.
      const direct = await page.evaluate(
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
        [stack.baseUrl, live],
      );
      expect(direct).toBe('blocked: TypeError');
    });
  });
});
