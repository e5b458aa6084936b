/**
 * One trial of the paced attack set: a production session through the capture API on the real
 * stack (CaptureStack), performed by a species of scripts/test-support/paced-attacks.ts, decided
 * by the worker, and read back as an integrator reads it (result and evidence report).
 */
import { CaptureClient } from '../../../../api/test/capture/support/capture-client';
import type { CaptureStack } from '../../../../api/test/capture/support/capture-stack';
import { documentOf } from '../../../../api/test/capture/support/applicant-files';
import {
  headFor,
  livePerformance,
  nearestPosePuppetPerformance,
  rigidBlinkingPerformance,
  splicedOfflinePerformance,
  type PacedSpecies,
  type TrialParams,
} from '../../../../scripts/test-support/paced-attacks';
import {
  performChallenge,
  type PerformedChallenge,
  type PerformOptions,
} from '../../../../scripts/test-support/paced-performer';

export interface PacedTrialOutcome {
  id: string;
  species: PacedSpecies;
  live: boolean;
  params: TrialParams;
  /** How the last challenge ended ('selfie' when captured), how many were started, and their time summed (client clock). */
  challenge: { next: string; attempts: number; elapsedMs: number; chunkStatuses: Record<string, number> };
  status: string;
  failure_reason: string | null;
  liveness: {
    verdict: string;
    reason: string | null;
    steps_completed: number | null;
    nonrigid: number | null;
    /** Each step's kind, target and measure against its line (paced_step_<n>_held_ms / _mouth_gain). */
    steps: Array<{ kind: string; target: { yaw: number; pitch: number }; measure: number | null; line: number | null }>;
    /** Every liveness score with its line, so a refusal can be traced to the line that made it. */
    scores: Record<string, { value: number; line: number | null }>;
  };
  /** Every check's verdict (and reason when it failed), as the evidence report gives them. */
  checks: Record<string, string>;
}

/** What a reused-capture trial replays: a completed trial's bytes, and the account it ran in. */
export interface CapturedBytes {
  framesByStep: Buffer[][];
  selfie: Buffer;
  document: Buffer;
  expectedName: string;
}

interface ReportCheck {
  verdict: string;
  reason: string | null;
  scores?: Array<{ name: string; value: number; threshold?: number }>;
}

function performanceOf(species: PacedSpecies, params: TrialParams, replay?: CapturedBytes): PerformOptions {
  switch (species) {
    case 'live-paced':
      return livePerformance(params);
    case 'rigid-blinking':
      return rigidBlinkingPerformance(params);
    case 'spliced-offline':
      return splicedOfflinePerformance(params);
    case 'nearest-pose-puppet':
      return nearestPosePuppetPerformance(params);
    case 'reused-capture': {
      if (!replay) throw new Error('a reused-capture trial needs the bytes of a completed trial');
      const frames = replay.framesByStep;
      return {
        ...livePerformance(params),
        frameAt: (step, n) => {
          const recorded = frames[Math.min(step.index, frames.length - 1)];
          return recorded[Math.min(n, recorded.length - 1)];
        },
      };
    }
  }
}

/** Runs one trial in the account whose production key is given; answers its outcome and the bytes it sent. */
export async function runPacedTrial(
  stack: CaptureStack,
  liveKey: string,
  id: string,
  species: PacedSpecies,
  params: TrialParams,
  replay?: CapturedBytes,
): Promise<{ outcome: PacedTrialOutcome; bytes: CapturedBytes }> {
  const passport = documentOf('TD3', 'clean', params.subject);
  const head = headFor(params, species !== 'rigid-blinking');
  const bytes: CapturedBytes = {
    framesByStep: [],
    selfie: replay?.selfie ?? (await head.selfie()),
    document: replay?.document ?? passport.image,
    expectedName: replay?.expectedName ?? passport.label.expected.fields.name,
  };
  const sessionId = await stack.session(
    { expected_name: bytes.expectedName, webhook_url: 'https://127.0.0.1:9/hook' },
    liveKey,
  );
  const client = new CaptureClient(stack.baseUrl, sessionId);
  const started = await client.start();
  if (started.body.liveness_mode !== 'paced') throw new Error(`session ${sessionId} is not paced`);
  const options = performanceOf(species, params, replay);
  // An applicant (or attacker) told to restart tries again, up to the server's 3 challenges.
  let performed: PerformedChallenge;
  let attempts = 0;
  let elapsedMs = 0;
  do {
    performed = await performChallenge(client, head, options);
    attempts += 1;
    elapsedMs += performed.elapsedMs;
  } while (performed.next === 'restart');
  bytes.framesByStep = performed.framesByStep;
  const chunkStatuses: Record<string, number> = {};
  for (const s of performed.chunkStatuses) chunkStatuses[s] = (chunkStatuses[s] ?? 0) + 1;
  if (performed.next === 'selfie') {
    await client.document('front', 'passport', bytes.document);
    await client.selfie(bytes.selfie);
    await client.submit();
    await client.decided(240_000);
  }
  const result = await stack.api<{ status: string; failure_reason: string | null }>(
    'GET',
    `/v1/sessions/${sessionId}/result`,
    liveKey,
  );
  const report = await stack.api<{ checks?: Record<string, ReportCheck> }>(
    'GET',
    `/v1/sessions/${sessionId}/report`,
    liveKey,
  );
  if (process.env.PACED_DEBUG) console.log(JSON.stringify(report.body.checks));
  const liveness = report.body.checks?.liveness;
  const score = (name: string) => liveness?.scores?.find((s) => s.name === name)?.value ?? null;
  return {
    outcome: {
      id,
      species,
      live: species === 'live-paced',
      params,
      challenge: { next: performed.next, attempts, elapsedMs, chunkStatuses },
      status: result.body.status,
      failure_reason: result.body.failure_reason,
      liveness: {
        verdict: liveness?.verdict ?? 'NOT_RUN',
        reason: liveness?.reason ?? null,
        steps_completed: score('steps_completed'),
        nonrigid: score('nonrigid_deformation'),
        steps: performed.steps.map((step) => {
          const name = `paced_step_${step.index + 1}_${step.kind === 'OPEN_MOUTH' ? 'mouth_gain' : 'held_ms'}`;
          const measure = liveness?.scores?.find((s) => s.name === name);
          return {
            kind: step.kind,
            target: step.target,
            measure: measure?.value ?? null,
            line: measure?.threshold ?? null,
          };
        }),
        scores: Object.fromEntries(
          (liveness?.scores ?? []).map((s) => [s.name, { value: s.value, line: s.threshold ?? null }]),
        ),
      },
      checks: Object.fromEntries(
        Object.entries(report.body.checks ?? {}).map(([name, c]) => [
          name,
          c.reason ? `${c.verdict} ${c.reason}` : c.verdict,
        ]),
      ),
    },
    bytes,
  };
}
