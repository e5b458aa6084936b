import { CameraError } from '../camera';
import type { PacedStep } from '../capture-client';
import { button, h, notice } from '../dom';
import type { Flow } from '../flow';
import { encodeJpeg, MAX_FRAME_EDGE } from '../image-encode';
import { FRAME_INTERVAL_MS } from './liveness-step';
import { showSending } from './sending';

/** Frames per chunk: about a second of video at 5 frames a second, sent while the next is taken. */
const FRAMES_PER_CHUNK = 5;
/** The time the deadline leaves after the step's capture for its last chunk and its completion. */
const SEND_MARGIN_MS = 1500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The prompt for a revealed step, in words (the dot shows where). */
function promptOf(flow: Flow, step: PacedStep): string {
  const { t } = flow;
  const progress = t('stepProgress', { i: step.index + 1, n: step.count });
  if (step.kind === 'OPEN_MOUTH') return `${progress}: ${t('paced_OPEN_MOUTH')}`;
  const side = step.target.yaw > 0 ? t('pacedLeft') : t('pacedRight');
  const tilt = step.target.pitch >= 6 ? ` ${t('pacedUp')}` : step.target.pitch <= -6 ? ` ${t('pacedDown')}` : '';
  return `${progress}: ${t('paced_HOLD_POSE')} (${side}${tilt})`;
}

/**
 * Where the dot goes on the mirrored preview: a turn to the applicant's left (yaw > 0) moves
 * their nose to the left of a mirrored picture; looking up moves it up.
 */
function placeDot(dot: HTMLElement, step: PacedStep): void {
  const x = 50 - (step.target.yaw / 30) * 35;
  const y = 45 - (step.target.pitch / 12) * 20;
  dot.style.left = `${x}%`;
  dot.style.top = `${y}%`;
  dot.hidden = step.kind === 'OPEN_MOUTH';
}

/**
 * Performs one revealed step: frames at 5 a second from the reveal's arrival, sent in chunks as
 * they are taken (the server bounds their timestamps by when they arrive), until the step's
 * deadline leaves only the time to send the rest; then completes it.
 */
async function performStep(flow: Flow, step: PacedStep, video: HTMLVideoElement) {
  const started = performance.now();
  const until = step.deadline_ms - SEND_MARGIN_MS;
  let batch: Array<{ frame: Promise<Blob>; t: number }> = [];
  let sending: Promise<unknown> = Promise.resolve();
  let refused = false;
  const flush = (chunk: typeof batch) => {
    sending = sending.then(async () => {
      if (refused || chunk.length === 0) return;
      const frames = await Promise.all(chunk.map((c) => c.frame));
      await flow.client
        .postStepFrames(
          step.step_id,
          frames,
          chunk.map((c) => c.t),
        )
        .catch(() => {
          // A chunk refused (late, or out of bounds): the step's completion says what comes next.
          refused = true;
        });
    });
  };
  let last = -1;
  while (performance.now() - started < until) {
    const t = Math.max(last + 1, Math.round(performance.now() - started));
    last = t;
    batch.push({ frame: encodeJpeg(video, MAX_FRAME_EDGE, 0.85), t });
    if (batch.length >= FRAMES_PER_CHUNK) {
      flush(batch);
      batch = [];
    }
    await sleep(FRAME_INTERVAL_MS);
  }
  flush(batch);
  await sending;
  return flow.client.completeStep(step.step_id);
}

/** The server-paced challenge (production sessions): resolves once the server says the selfie comes next. */
export function capturePacedLiveness(flow: Flow, problem: string | null = null): Promise<void> {
  const { t } = flow;
  return new Promise((resolve, reject) => {
    const prompt = h('p', { class: 'challenge-prompt', 'aria-live': 'assertive' });
    const video = h('video', {
      class: 'camera mirrored',
      'aria-label': t('cameraLabel'),
      playsinline: true,
      muted: true,
      autoplay: true,
    }) as HTMLVideoElement;
    const dot = h('div', { class: 'paced-target', 'aria-hidden': 'true', hidden: true });
    const stage = h(
      'div',
      { class: 'viewfinder guide-face' },
      video,
      h('div', { class: 'guide', 'aria-hidden': 'true' }),
      dot,
    );
    const status = h('div', {});
    const run = async () => {
      for (;;) {
        const step = await flow.client.revealStep();
        stage.dataset.challenge = step.kind;
        prompt.textContent = promptOf(flow, step);
        placeDot(dot, step);
        const done = await performStep(flow, step, video);
        if (done.next === 'selfie') return;
        if (done.next === 'restart') status.replaceChildren(notice(t('pacedRestart'), 'problem'));
      }
    };
    const begin = button(t('livenessBegin'), 'start', () => {
      begin.setAttribute('disabled', '');
      flow.camera(video, 'user').then(
        async () => {
          begin.remove();
          try {
            await run();
            flow.releaseCamera();
            showSending(flow, 'liveness', 'livenessTitle');
            resolve();
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        },
        (error) => {
          const message = error instanceof CameraError ? t(error.messageKey) : t('camera_other');
          flow.show(
            'liveness',
            'livenessTitle',
            notice(message, 'problem'),
            h('p', {}, t('livenessNeedsCamera')),
            h(
              'div',
              { class: 'actions' },
              button(t('tryAgain'), 'retake', () => void capturePacedLiveness(flow, problem).then(resolve, reject)),
            ),
          );
        },
      );
    });
    flow.show(
      'liveness',
      'livenessTitle',
      problem ? notice(problem, 'problem') : null,
      status,
      h('p', {}, t('livenessHint')),
      stage,
      prompt,
      h('div', { class: 'actions' }, begin),
    );
  });
}
