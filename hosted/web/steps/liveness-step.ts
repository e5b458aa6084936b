import { CameraError } from '../camera';
import type { ChallengeStep } from '../capture-client';
import { button, h, notice } from '../dom';
import { filePicker } from '../file-picker';
import type { Flow } from '../flow';
import { encodeJpeg, MAX_FRAME_EDGE } from '../image-encode';
import type { MessageKey } from '../messages';
import { framesFromVideoFile, RecordedFrames } from './video-frames';
import { showSending } from './sending';

/**
 * Frames per second while a step runs (the contract wants 5–8; 5 keeps the upload and the server's
 * per-frame face analysis small on a phone network and a CPU-only server), and how long each step lasts.
 */
export const FRAME_INTERVAL_MS = 1000 / 5;
export const READY_MS = 1000;
export const STEP_MS = 2000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Records the challenge from the live camera: a short "look at the camera" phase (the server
 * measures every movement against the first frame), then each step with its prompt and animation
 * while frames are taken at 5 per second.
 */
async function recordChallenge(
  flow: Flow,
  video: HTMLVideoElement,
  prompt: HTMLElement,
  progress: HTMLProgressElement,
  stage: HTMLElement,
): Promise<RecordedFrames> {
  const frames: Promise<Blob>[] = [];
  const timestamps: number[] = [];
  const started = performance.now();
  const grabUntil = async (until: number) => {
    while (performance.now() - started < until) {
      timestamps.push(Math.round(performance.now() - started));
      frames.push(encodeJpeg(video, MAX_FRAME_EDGE, 0.85));
      await sleep(FRAME_INTERVAL_MS);
    }
  };
  const total = READY_MS + STEP_MS * flow.challenge.length;
  prompt.textContent = flow.t('livenessReady');
  stage.dataset.challenge = 'READY';
  await grabUntil(READY_MS);
  for (const [index, step] of flow.challenge.entries()) {
    prompt.textContent = `${flow.t('stepProgress', { i: index + 1, n: flow.challenge.length })}: ${flow.t(`step_${step}` as MessageKey)}`;
    stage.dataset.challenge = step;
    progress.value = (READY_MS + STEP_MS * index) / total;
    await grabUntil(READY_MS + STEP_MS * (index + 1));
  }
  progress.value = 1;
  return { frames: await Promise.all(frames), timestamps };
}

function challengeList(flow: Flow): HTMLElement {
  return h(
    'ol',
    { class: 'challenge-list' },
    ...flow.challenge.map((step: ChallengeStep) => h('li', {}, flow.t(`step_${step}` as MessageKey))),
  );
}

/** Resolves once the server accepted the frames (or the attempts ran out: the decision says the rest). */
export function captureLiveness(flow: Flow, problem: string | null = null): Promise<void> {
  const { t } = flow;
  return new Promise((resolve, reject) => {
    const send = async (recorded: RecordedFrames) => {
      flow.releaseCamera();
      showSending(flow, 'liveness', 'livenessTitle');
      try {
        const answer = await flow.client.postLiveness(recorded.frames, recorded.timestamps);
        if (!answer.retake) return resolve();
        captureLiveness(flow, `${t('livenessRetake')} ${t('attemptsLeft', { n: answer.attempts_left })}`).then(
          resolve,
          reject,
        );
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    // Without a live camera the phone's camera app records a video of the same challenge.
    const recordVideo = () =>
      filePicker(t('recordVideo'), 'video/*', 'user', (file) => {
        framesFromVideoFile(file).then(send, () => captureLiveness(flow, t('camera_other')).then(resolve, reject));
      });
    const prompt = h('p', { class: 'challenge-prompt', 'aria-live': 'assertive' });
    const progress = h('progress', {
      max: '1',
      value: '0',
      'aria-label': t('progressLabel'),
    }) as HTMLProgressElement;
    const video = h('video', {
      class: 'camera mirrored',
      'aria-label': t('cameraLabel'),
      playsinline: true,
      muted: true,
      autoplay: true,
    }) as HTMLVideoElement;
    const stage = h(
      'div',
      { class: 'viewfinder guide-face' },
      video,
      h('div', { class: 'guide', 'aria-hidden': 'true' }),
      h('div', { class: 'challenge-animation', 'aria-hidden': 'true' }),
    );
    const begin = button(t('livenessBegin'), 'start', () => {
      begin.setAttribute('disabled', '');
      flow.camera(video, 'user').then(
        async () => {
          begin.remove();
          await send(await recordChallenge(flow, video, prompt, progress, stage));
        },
        (error) => {
          const message = error instanceof CameraError ? t(error.messageKey) : t('camera_other');
          flow.show(
            'liveness',
            'livenessTitle',
            notice(message, 'problem'),
            h('p', {}, t('livenessNeedsCamera')),
            challengeList(flow),
            h(
              'div',
              { class: 'actions' },
              recordVideo(),
              button(t('tryAgain'), 'retake', () => void captureLiveness(flow, problem).then(resolve, reject), {
                class: 'secondary',
              }),
            ),
          );
        },
      );
    });
    flow.show(
      'liveness',
      'livenessTitle',
      problem ? notice(problem, 'problem') : null,
      h('p', {}, t('livenessHint')),
      challengeList(flow),
      stage,
      prompt,
      progress,
      h('div', { class: 'actions' }, begin),
    );
  });
}
