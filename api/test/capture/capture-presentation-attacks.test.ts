/**
 * Presentation attacks through the capture API, end to end on the real stack (FerretDB, Redis, the
 * inference service on the real models, the API and a worker). The attacks are the project's
 * simulations (`npm run testdata:pad`): a print of the applicant held up and turned through the
 * challenge, and a screen replaying the applicant's own challenge recording; the control is that
 * recording itself through the same camera model. The selfie is taken with the same medium.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CaptureClient } from './support/capture-client';
import { CaptureStack } from './support/capture-stack';
import { documentOf, selfieOf, TESTDATA } from './support/applicant-files';
import type { Schemas, SessionResult } from '../support/api-bodies';

const PINNED = ['TURN_LEFT', 'TURN_RIGHT', 'BLINK'];
const APPLICANT = 'bearded-man';

interface PadSequence {
  name: string;
  frames: string[];
  challenge: string[];
  species: string;
  source_identity: string;
  source_sequence: string | null;
}

const padDir = path.join(TESTDATA, 'pad');
function padSequence(species: string): { frames: Buffer[]; name: string } {
  const { sequences } = JSON.parse(readFileSync(path.join(padDir, 'labels.json'), 'utf8')) as {
    sequences: PadSequence[];
  };
  const found = sequences.find(
    (s) =>
      s.species === species &&
      s.source_identity === APPLICANT &&
      s.challenge.join() === PINNED.join() &&
      (species === 'print-turned' || s.source_sequence === `${APPLICANT}__synthetic-left-right-blink`),
  );
  if (!found)
    throw new Error(
      `no ${species} sequence of ${APPLICANT} performing ${PINNED.join(', ')}: run npm run testdata:pad-sample`,
    );
  return { name: found.name, frames: found.frames.map((f) => readFileSync(path.join(padDir, f))) };
}

describe('presentation attacks through the capture API (simulated attacks, real models)', () => {
  let stack: CaptureStack;
  beforeAll(async () => {
    stack = await CaptureStack.start();
  }, 240_000);
  afterAll(async () => stack?.stop(), 60_000);

  async function present(frames: Buffer[], selfie: Buffer) {
    const passport = documentOf('TD3', 'clean', APPLICANT);
    const id = await stack.session({
      sandbox: { liveness_challenge: PINNED },
      expected_name: passport.label.expected.fields.name,
    });
    const client = new CaptureClient(stack.baseUrl, id);
    expect((await client.start()).status).toBe(200);
    expect((await client.document('front', 'passport', passport.image)).body).toMatchObject({
      readable: true,
    });
    expect((await client.liveness(frames)).status).toBe(200);
    await client.selfie(selfie);
    expect((await client.submit()).status).toBe(202);
    expect((await client.decided(90_000)).decision).toBe('done');
    const result = (await stack.api<SessionResult>('GET', `/v1/sessions/${id}/result`)).body;
    const report = (await stack.api<Schemas['EvidenceReport']>('GET', `/v1/sessions/${id}/report`)).body;
    return { result, report };
  }

  it('verifies the applicant performing the challenge live, through the same camera model as the attacks', async () => {
    const live = padSequence('live');
    const { result } = await present(live.frames, selfieOf(APPLICANT));
    expect({ sequence: live.name, status: result.status, checks: result.checks }).toEqual({
      sequence: live.name,
      status: 'VERIFIED',
      checks: {
        document: 'PASS',
        liveness: 'PASS',
        antispoof: 'PASS',
        face_match: 'PASS',
        document_chip: 'NOT_PERFORMED',
      },
    });
  }, 180_000);

  it('refuses a print of the applicant held up and turned through the challenge, naming the failing check and its reason', async () => {
    const print = padSequence('print-turned');
    const { result, report } = await present(print.frames, print.frames[0]);
    expect(result.status).not.toBe('VERIFIED');
    const failing = (['liveness', 'antispoof'] as const).filter((check) => report.checks[check].verdict === 'FAIL');
    expect(failing.length).toBeGreaterThan(0);
    for (const check of failing) expect(report.checks[check].reason).toMatch(/SPOOF_DETECTED|LIVENESS_FAILED/);
    expect(result.failure_reason).toMatch(/SPOOF_DETECTED|LIVENESS_FAILED/);
  }, 180_000);

  it("refuses a screen replaying the applicant's own challenge recording: the antispoof check fails it as SPOOF_DETECTED", async () => {
    const replay = padSequence('screen-replay');
    const { result, report } = await present(replay.frames, replay.frames[0]);
    expect(result.status).not.toBe('VERIFIED');
    expect(report.checks.antispoof).toMatchObject({ verdict: 'FAIL', reason: 'SPOOF_DETECTED' });
    expect(report.checks.antispoof.scores.length).toBeGreaterThan(0);
  }, 180_000);
});
