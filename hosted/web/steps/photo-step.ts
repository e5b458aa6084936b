import { CameraError, Facing } from '../camera';
import { button, h, notice } from '../dom';
import { filePicker } from '../file-picker';
import type { Flow, StepName } from '../flow';
import { encodeFile, encodeJpeg, MAX_PHOTO_EDGE } from '../image-encode';
import type { MessageKey } from '../messages';

export interface PhotoStepOptions {
  step: StepName;
  title: MessageKey;
  hint: MessageKey;
  facing: Facing;
  guide: 'document' | 'face';
  /** The server's feedback on the previous attempt, shown above the camera. */
  feedback?: string | null;
}

/**
 * Live camera with a guide frame → capture → preview → retake or use; the upload fallback when the
 * camera cannot be used. Resolves with the JPEG the applicant chose to send.
 */
export function choosePhoto(flow: Flow, options: PhotoStepOptions): Promise<Blob> {
  const { t } = flow;
  return new Promise((resolve) => {
    const upload = () =>
      filePicker(t('upload'), 'image/*', options.facing, (file) => {
        encodeFile(file).then(preview, () => live(t('camera_other')));
      });

    const live = (problem?: string | null) => {
      const video = h('video', {
        class: `camera ${options.facing === 'user' ? 'mirrored' : ''}`,
        'aria-label': t('cameraLabel'),
        playsinline: true,
        muted: true,
        autoplay: true,
      }) as HTMLVideoElement;
      const capture = button(
        t('capture'),
        'capture',
        () => {
          encodeJpeg(video, MAX_PHOTO_EDGE).then(preview, () => live(t('camera_other')));
        },
        { disabled: true },
      );
      // Says why the button waits: the camera's start and, for the selfie, the integrity probe take
      // 2-3 s, and a greyed-out button with no word reads as a broken page.
      const preparing = notice(t('cameraPreparing'));
      const viewport = h(
        'div',
        { class: `viewfinder guide-${options.guide}` },
        video,
        h('div', { class: 'guide', 'aria-hidden': 'true' }),
      );
      flow.show(
        options.step,
        options.title,
        problem ? notice(problem, 'problem') : null,
        h('p', {}, t(options.hint)),
        viewport,
        preparing,
        h('div', { class: 'actions' }, capture, upload()),
      );
      flow.camera(video, options.facing).then(
        async () => {
          // The probe changes the exposure or zoom for a moment: the photo waits until it is put back.
          if (options.facing === 'user') await flow.checkIntegrity(video);
          preparing.remove();
          capture.removeAttribute('disabled');
        },
        (error) => cameraFailed(error instanceof CameraError ? t(error.messageKey) : t('camera_other')),
      );
    };

    const cameraFailed = (message: string) => {
      flow.show(
        options.step,
        options.title,
        options.feedback ? notice(options.feedback, 'problem') : null,
        notice(message, 'problem'),
        h('p', {}, t(options.hint)),
        h(
          'div',
          { class: 'actions' },
          upload(),
          button(t('tryAgain'), 'retake', () => live(options.feedback), { class: 'secondary' }),
        ),
      );
    };

    const preview = (blob: Blob) => {
      const url = URL.createObjectURL(blob);
      const done = (next: () => void) => () => {
        URL.revokeObjectURL(url);
        next();
      };
      flow.show(
        options.step,
        options.title,
        h('img', { class: 'preview', src: url, alt: t('previewAlt') }),
        h(
          'div',
          { class: 'actions' },
          button(
            t('usePhoto'),
            'use-photo',
            done(() => resolve(blob)),
          ),
          button(
            t('retake'),
            'retake',
            done(() => live(options.feedback)),
            { class: 'secondary' },
          ),
        ),
      );
    };

    live(options.feedback);
  });
}
