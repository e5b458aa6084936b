import path from 'node:path';
import express, { Router } from 'express';
import { renderCredentialPage } from '../../../../../hosted/src/credential-page';
import { Locale } from '../../../../../hosted/src/messages';
import { renderNotFoundPage, renderVerificationPage } from '../../../../../hosted/src/verification-page';
import { AppContext } from '../../../app-context';
import {
  credentialView,
  recordCredentialRead,
} from '../../../domain/usecases/check-credential/check-credential.usecase';
import { openSession } from '../../../domain/usecases/open-session/open-session.usecase';
import { Person } from '../../../domain/session-status';
import { SESSION_ID_PATTERN } from '../../../shared/random-id';
import { originOf, setHostedPageHeaders } from '../middleware/hosted-page-headers';

const HOSTED_PUBLIC = path.resolve(__dirname, '../../../../../hosted/public');
// Built by `npm run build:web` (set-up); revalidated on every load so a rebuild is picked up.
const WEB_DIST = path.join(HOSTED_PUBLIC, 'dist');

const localeOf = (value: unknown, fallback: Locale = 'en'): Locale =>
  value === 'fr' || value === 'en' ? value : fallback;

/** The stored result body (the contract's SessionResult); only the person is read here. */
interface StoredResult {
  person?: Person | null;
}

/** The applicant-facing pages: no key; the session id in the URL is the capability. */
export function hostedRouter(ctx: AppContext): Router {
  const router = Router();
  router.use('/hosted/dist', express.static(WEB_DIST, { index: false, maxAge: 0 }));
  router.use('/hosted', express.static(HOSTED_PUBLIC, { index: false, maxAge: '1h' }));
  router.get('/widget.js', (_req, res) => {
    res.sendFile(path.join(WEB_DIST, 'widget.js'), { maxAge: 0 });
  });

  router.get('/v/:id', async (req, res) => {
    const id = String(req.params.id);
    const session = SESSION_ID_PATTERN.test(id) ? await openSession(ctx, id) : null;
    const parentOrigin = originOf(session?.return_url);
    setHostedPageHeaders(res, parentOrigin);
    if (!session) {
      res
        .status(404)
        .type('html')
        .send(renderNotFoundPage(localeOf(req.query.locale)));
      return;
    }
    const html = await renderVerificationPage({
      sessionId: session._id,
      locale: localeOf(req.query.locale, session.locale),
      status: session.status,
      verificationUrl: `${ctx.config.PUBLIC_BASE_URL}/v/${session._id}`,
      parentOrigin,
    });
    res.type('html').send(html);
  });

  router.get('/c/:id', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const id = String(req.params.id);
    const locale = localeOf(req.query.locale);
    const session = SESSION_ID_PATTERN.test(id) ? await ctx.sessions.findForApplicant(id) : null;
    const person = session?.result_body ? (JSON.parse(session.result_body) as StoredResult).person : null;
    if (!session || session.status !== 'VERIFIED' || !person || !session.verified_until || session.redacted_at) {
      res.status(404).type('html').send(renderNotFoundPage(locale));
      return;
    }
    await recordCredentialRead(
      ctx,
      session._id,
      session.account_id,
      (res.locals.requestId as string | undefined) ?? null,
    );
    const view = credentialView(person, session.status, session.verified_until, ctx.clock.now());
    res.type('html').send(renderCredentialPage({ locale: localeOf(req.query.locale, session.locale), ...view }));
  });
  return router;
}
