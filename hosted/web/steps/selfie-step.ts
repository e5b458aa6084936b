import type { Flow } from '../flow';
import { choosePhoto } from './photo-step';
import { showSending } from './sending';

export async function captureSelfie(flow: Flow): Promise<void> {
  let feedback: string | null = null;
  for (;;) {
    const photo = await choosePhoto(flow, {
      step: 'selfie',
      title: 'selfieTitle',
      hint: 'selfieHint',
      facing: 'user',
      guide: 'face',
      feedback,
    });
    showSending(flow, 'selfie', 'selfieTitle');
    const answer = await flow.client.putSelfie(photo);
    if (!answer.retake) break;
    // A face that fills the frame leaves the antispoof crop no room: the applicant moves back.
    feedback = `${flow.t(answer.reason === 'FACE_TOO_CLOSE' ? 'faceTooClose' : 'noFace')} ${flow.t('attemptsLeft', { n: answer.attempts_left })}`;
  }
  flow.releaseCamera();
}
