import type { DocumentAnswer } from '../capture-client';
import type { Flow } from '../flow';
import { isMessageKey } from '../messages';
import { choosePhoto } from './photo-step';
import { showSending } from './sending';

/** The server's reading of one side, in plain words, with the attempts the applicant has left. */
function feedbackFor(flow: Flow, answer: DocumentAnswer): string {
  const key = `reason_${answer.reason ?? 'DOCUMENT_UNREADABLE'}`;
  const reason = isMessageKey(key) ? flow.t(key) : flow.t('reason_DOCUMENT_UNREADABLE');
  return `${reason} ${flow.t('attemptsLeft', { n: answer.attempts_left })}`;
}

/** Photographs one side until the server reads it or the attempts run out; resolves with what comes next. */
export async function captureSide(flow: Flow, side: 'front' | 'back'): Promise<DocumentAnswer['next']> {
  const step = side === 'front' ? 'document-front' : 'document-back';
  const title = side === 'front' ? 'frontTitle' : 'backTitle';
  let feedback: string | null = null;
  for (;;) {
    const photo = await choosePhoto(flow, {
      step,
      title,
      hint: 'documentHint',
      facing: 'environment',
      guide: 'document',
      feedback,
    });
    showSending(flow, step, title);
    const answer = await flow.client.putDocument(side, flow.documentType, photo);
    // After the last attempt capture goes on and the decision carries the reason (contract).
    if (answer.readable || !answer.retake) return answer.next;
    feedback = feedbackFor(flow, answer);
  }
}

export async function captureDocument(flow: Flow): Promise<void> {
  const next = await captureSide(flow, 'front');
  if (next === 'back') await captureSide(flow, 'back');
  flow.releaseCamera();
}
