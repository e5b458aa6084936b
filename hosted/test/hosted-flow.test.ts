import { Applicant } from './support/applicant';
import { screenshot } from './support/browser';
import { challengeScene, documentImage, faceImage } from './support/camera-files';
import { phoneAt } from './support/handoff-progress';
import {
  CHALLENGE,
  HostedFlow,
  PASSPORT,
  RETURN_URL,
  serveReturnPage,
  whenAvailable,
} from './support/hosted-flow-harness';
import * as integrator from './support/integrator-page';
import { startWidgetDemo, WidgetDemo } from '../demo/widget-demo-server';
import { CaptureClient } from '../../api/test/capture/support/capture-client';
import { documentOf, livenessOf, selfieOf } from '../../api/test/capture/support/applicant-files';
import type { Schemas } from '../../api/test/support/api-bodies';

jest.setTimeout(300_000);

describe('the applicant completes the hosted flow in a real browser with a (fake) camera', () => {
  let flow: HostedFlow;
  beforeAll(async () => {
    flow = await HostedFlow.start();
  }, 180_000);
  afterAll(() => flow?.stop());

  it('verifies the document holder on a phone, then returns to return_url with session_id and status, and the webhook arrives signed', async () => {
    const session = await flow.newSession();
    const applicant = await flow.captureOnPhone(session.verification_url, 'astronaut', 'phone');
    await applicant.reach('done', 180_000);
    expect(await applicant.page.locator('.outcome').getAttribute('data-status')).toBe('VERIFIED');

    await applicant.page.waitForURL((url) => url.href.startsWith(RETURN_URL), { timeout: 15_000 });
    const returned = new URL(applicant.page.url());
    expect([returned.searchParams.get('session_id'), returned.searchParams.get('status')]).toEqual([
      session.session_id,
      'VERIFIED',
    ]);

    const decided = await flow.result(session.session_id);
    expect({ status: decided.status, failure_reason: decided.failure_reason }).toEqual({
      status: 'VERIFIED',
      failure_reason: null,
    });
    const copy = await flow.webhookFor(session.session_id);
    expect(copy).toBeDefined();
    expect({
      status: copy?.status,
      bio: copy?.bioSignatureValid,
      standard: copy?.standardSignatureValid,
    }).toEqual({ status: 'VERIFIED', bio: true, standard: true });
    expect(applicant.violations).toEqual({});

    // The page sent its integrity signals from the selfie camera: an automated browser and
    // chromium's fake device are flagged, and reported only, since sandbox sessions never fail on them.
    const report = await flow.stack.api<Schemas['EvidenceReport']>('GET', `/v1/sessions/${session.session_id}/report`);
    expect(report.body.checks.capture_integrity).toMatchObject({
      verdict: 'FAIL',
      integrity: {
        enforced: false,
        signals: {
          client: 'web',
          webdriver: true,
          camera: { class: 'test_device', product: 'Chromium fake device' },
          frame_timing: { api: 'rvfc' },
        },
      },
    });
    const integrity = report.body.checks.capture_integrity.integrity;
    expect(integrity?.flags).toEqual(expect.arrayContaining(['webdriver', 'test_camera']));
    expect(integrity?.signals?.frame_timing?.frames).toBeGreaterThan(5);
  });

  it("takes a production session's server-paced challenge on a phone: each revealed step is prompted, its frames are judged, and the flow reaches the selfie and the outcome", async () => {
    const session = await flow.newProductionSession();
    const applicant = await flow.captureOnPhone(
      session.verification_url,
      'astronaut',
      'phone-paced',
      'astronaut__augmented-1.jpg',
      'paced',
    );
    await applicant.reach('done', 180_000);
    // The fake camera plays a recording made before the targets were drawn, which is what the
    // paced challenge exists to refuse: the outcome is shown, and it is not VERIFIED.
    const shown = await applicant.page.locator('.outcome').getAttribute('data-status');
    const decided = await flow.result(session.session_id, flow.liveApiKey);
    expect(shown).toBe(decided.status);
    expect(decided).toMatchObject({ status: 'FAILED', failure_reason: 'LIVENESS_FAILED' });
    // Every step the server revealed was judged from the frames the page sent in chunks.
    const report = await flow.stack.api<Schemas['EvidenceReport']>(
      'GET',
      `/v1/sessions/${session.session_id}/report`,
      flow.liveApiKey,
    );
    const scores = report.body.checks.liveness.scores.map((s) => s.name);
    expect(scores).toEqual(expect.arrayContaining(['steps_completed', 'nonrigid_deformation']));
    expect(scores.filter((name) => /^paced_step_\d_/.test(name))).toHaveLength(4);
    expect(applicant.violations).toEqual({});
  });

  it("fails with FACE_MATCH_BELOW_THRESHOLD when another person's face follows the challenge and takes the selfie, and shows the outcome", async () => {
    const session = await flow.newSession();
    // Another person performs the challenge and takes the selfie (liveness passes: the selfie is the
    // performer), so what fails is the match with the document's portrait. Not grace-hopper: her
    // portrait is a scan of a printed photograph, which the PAD model rightly calls a recapture.
    const applicant = await flow.captureOnPhone(session.verification_url, 'bearded-man', 'other-face');
    await applicant.reach('done', 180_000);
    expect(await applicant.page.locator('.outcome').getAttribute('data-status')).toBe('FAILED');
    const decided = await flow.result(session.session_id);
    expect({ status: decided.status, failure_reason: decided.failure_reason }).toEqual({
      status: 'FAILED',
      failure_reason: 'FACE_MATCH_BELOW_THRESHOLD',
    });
  });

  it('completes in French by uploads when the camera is refused: a document photo, a recorded challenge video and a selfie', async () => {
    const session = await flow.newSession({ locale: 'fr' });
    const applicant = await flow.phonePage({ denied: true }, 'fr-denied');
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
    await applicant.upload(await flow.camera.webm(challengeScene('astronaut', CHALLENGE), 640, 480));

    await applicant.uploadPhoto('selfie', faceImage('astronaut__augmented-1.jpg'), 180_000);
    await applicant.reach('done', 180_000);
    expect(await applicant.page.locator('.outcome').textContent()).toBe('Merci : votre identité est vérifiée.');
    expect((await flow.result(session.session_id)).status).toBe('VERIFIED');
    expect(applicant.violations).toEqual({});
  });

  it("on a desktop shows the QR hand-off, then follows the phone's progress step by step, then checking and the outcome, and continues to return_url", async () => {
    const session = await flow.newSession();
    const context = await flow.desktopContext();
    await serveReturnPage(context);
    const desktop = new Applicant(await context.newPage(), 'desktop');
    await desktop.page.goto(session.verification_url);
    await desktop.reach('handoff');
    expect(await desktop.page.locator('#handoff-qr svg').isVisible()).toBe(true);
    expect(await desktop.page.getByRole('button', { name: 'Continue on this computer' }).isVisible()).toBe(true);

    expect(await phoneAt(desktop, 'waiting')).toEqual({
      list: ['document: to do', 'liveness: to do', 'selfie: to do'],
      status: 'Waiting for your phone…',
    });

    // The phone, reduced to what it sends: the capture API over HTTP.
    const phone = new CaptureClient(flow.stack.baseUrl, session.session_id);
    await phone.start();
    expect(await phoneAt(desktop, 'document')).toEqual({
      list: ['document: in progress', 'liveness: to do', 'selfie: to do'],
      status: 'On your phone: photographing the document.',
    });
    const sequence = livenessOf('astronaut', 'synthetic-performs-challenge');
    expect(sequence.challenge).toEqual(CHALLENGE);
    expect(
      (await whenAvailable(() => phone.document('front', 'passport', documentOf('TD3', 'clean', 'astronaut').image)))
        .body,
    ).toMatchObject({ readable: true });
    expect(await phoneAt(desktop, 'liveness')).toEqual({
      list: ['document: done', 'liveness: in progress', 'selfie: to do'],
      status: 'On your phone: following the face movements.',
    });
    expect((await whenAvailable(() => phone.liveness(sequence.frames))).body).toMatchObject({
      retake: false,
    });
    expect((await phoneAt(desktop, 'selfie')).list).toEqual([
      'document: done',
      'liveness: done',
      'selfie: in progress',
    ]);
    expect((await whenAvailable(() => phone.selfie(selfieOf('astronaut')))).body).toMatchObject({
      face_found: true,
    });
    expect((await phoneAt(desktop, 'submit')).list).toEqual(['document: done', 'liveness: done', 'selfie: done']);
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
      demo = await startWidgetDemo({ apiBase: flow.stack.baseUrl });
    });
    afterAll(() => demo?.stop());

    it('relays step and complete with their payloads, resizes its frame, and ignores a message from a foreign origin', async () => {
      const session = await flow.newSession({ return_url: `${demo.url}/done` });
      const page = await (await flow.desktopContext()).newPage();
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
      expect((await integrator.events(page)).filter((e) => e.type === 'complete')).toEqual([]);

      const simulated = await fetch(`${flow.stack.baseUrl}/v1/sessions/${session.session_id}/simulate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Api-Key': flow.stack.apiKey },
        body: JSON.stringify({ outcome: 'VERIFIED' }),
      });
      expect(simulated.status).toBe(200);
      await integrator.completed(page, 30_000);
      await screenshot(page, 'widget-complete');
      const seen = await integrator.events(page);
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
      const page = await (await flow.desktopContext()).newPage();
      const consoleErrors = integrator.consoleErrorsMentioning(page, 'Bioverify');

      await page.goto(`${demo.url}/?api_key=${flow.stack.apiKey}`);
      const frame = page.frameLocator('iframe');
      await frame.locator('body[data-step="intro"]').waitFor({ timeout: 30_000 });
      await frame.getByRole('button', { name: 'Start' }).click();
      await frame.locator('body[data-step="document-type"]').waitFor();
      await screenshot(page, 'widget-sandbox-key-document-type');
      const sessionId = new URL((await page.locator('iframe').getAttribute('src')) as string).pathname
        .split('/')
        .pop() as string;
      expect((await flow.stack.api('GET', `/v1/sessions/${sessionId}`)).body).toMatchObject({
        session_id: sessionId,
        status: 'IN_PROGRESS',
        environment: 'sandbox',
      });
      expect((await integrator.events(page)).filter((e) => e.type === 'step')).toEqual([
        { source: 'bioverify', type: 'step', session_id: sessionId, step: 'intro' },
        { source: 'bioverify', type: 'step', session_id: sessionId, step: 'document-type' },
      ]);
      // The page reads the answer's rate-limit headers: the API exposes them to other origins.
      const remaining = await integrator.createSession(page, flow.stack.baseUrl, flow.stack.apiKey);
      expect(remaining[0]).toBe(201);
      expect(Number(remaining[1])).toBeGreaterThan(0);
      expect(consoleErrors).toEqual([]);

      const live = flow.liveApiKey;
      const sessionRequests = integrator.requestsTo(page, '/v1/sessions');
      const refusal = integrator.consoleError(page, 'production API key', 15_000);
      await page.goto(`${demo.url}/?api_key=${live}`);
      await refusal;
      await page.waitForTimeout(500);
      expect(await page.locator('iframe').count()).toBe(0);
      expect(sessionRequests).toEqual([]);
      // A page that calls the API itself with the production key cannot read an answer either: the
      // API refuses it (403, no CORS headers) and the browser blocks the response.
      const direct = await integrator.sessionAnswer(page, flow.stack.baseUrl, live);
      expect(direct).toBe('blocked: TypeError');
    });
  });
});
