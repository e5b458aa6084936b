import type { Flow } from '../flow';
import { choosePhoto } from './photo-step';
import { showSending } from './sending';

export async function captureSelfie(flow: Flow): Promise<void> {
  let feedback: string | null = null;
  for (;;) {
    const photo = await choosePhoto(flow, { step: 'selfie', title: 'selfieTitle', hint: 'selfieHint', facing: 'user', guide: 'face', feedback });
    showSending(flow, 'selfie', 'selfieTitle');
    const answer = await flow.client.putSelfie(photo);
    if (answer.face_found || !answer.retake) break;
    feedback = `${flow.t('noFace')} ${flow.t('attemptsLeft', { n: answer.attempts_left })}`;
  }
  flow.releaseCamera();
}
