/**
 * `--paced`: the liveness step as a production session takes it, the server-paced challenge
 * (docs/paced-challenge.md), performed live by the project's synthetic head
 * (scripts/test-support/paced-performer.ts) over HTTP: each step revealed, its frames rendered on
 * the clock and posted in chunks, then completed. The head's rendering is the benchmark client's
 * CPU, apart from the service's.
 */
import { performChallenge, SyntheticHead, type PacedClient } from '../../scripts/test-support/paced-performer';

/** The identities the synthetic head can be (face-sources.ts `livenessSources`), the PAD case aside. */
export const PACED_IDENTITIES = ['astronaut', 'bearded-man'];

async function answer(res: Response): Promise<{ status: number; body: Record<string, unknown> }> {
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

function pacedClient(capture: string, auth: Record<string, string>): PacedClient {
  return {
    revealStep: async () => answer(await fetch(`${capture}/liveness/steps`, { method: 'POST', headers: auth })),
    pacedFrames: async (stepId, frames, timestamps) => {
      const form = new FormData();
      for (const frame of frames)
        form.append('frame', new Blob([new Uint8Array(frame)], { type: 'image/jpeg' }), 'f.jpg');
      form.append('timestamps', JSON.stringify(timestamps));
      return answer(
        await fetch(`${capture}/liveness/steps/${stepId}/frames`, { method: 'POST', headers: auth, body: form }),
      );
    },
    completeStep: async (stepId) => {
      const done = await answer(
        await fetch(`${capture}/liveness/steps/${stepId}/complete`, { method: 'POST', headers: auth }),
      );
      return { status: done.status, body: { ...done.body, next: String(done.body.next) } };
    },
  };
}

/** Performs the whole challenge; answers how long it took and whether the server moved on to the selfie. */
export async function performPacedLiveness(
  capture: string,
  auth: Record<string, string>,
  identity: string,
  seed: number,
): Promise<{ ms: number; next: string; steps: number }> {
  // Each applicant's head has its own tint and noise, so no two sessions send the same frame.
  const head = new SyntheticHead(true, { subject: identity, seed, noise: 3, tint: [1, 1, 1] });
  const done = await performChallenge(pacedClient(capture, auth), head);
  return { ms: done.elapsedMs, next: done.next, steps: done.steps.length };
}
