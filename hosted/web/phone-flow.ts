import { CaptureApiError, CaptureSteps } from './capture-client';
import type { Flow } from './flow';
import { showChecking } from './steps/checking-step';
import { captureDocument, captureSide } from './steps/document-steps';
import { chooseDocumentType, showIntro } from './steps/intro-step';
import { captureLiveness } from './steps/liveness-step';
import { capturePacedLiveness } from './steps/paced-liveness-step';
import { showError } from './steps/outcome-step';
import { captureSelfie } from './steps/selfie-step';

function problemMessage(flow: Flow, error: unknown): string {
  if (!(error instanceof CaptureApiError)) return flow.t('errorGeneric');
  if (error.status === 409 && error.code === 'CONFLICT') return flow.t('errorBusy');
  if (error.status === 429) return flow.t('errorTooMany');
  return flow.t('errorGeneric');
}

const NOTHING_CAPTURED: CaptureSteps = {
  document_front: 'missing',
  document_back: 'missing',
  liveness: 'missing',
  selfie: 'missing',
};

/** Picks the document up where this device left it (a reload, or the camera app sending the applicant back). */
async function resumeDocument(flow: Flow, done: CaptureSteps): Promise<void> {
  const remembered = flow.client.rememberedDocumentType();
  if (done.document_front !== 'captured' || !remembered) {
    await chooseDocumentType(flow);
    await captureDocument(flow);
    return;
  }
  flow.documentType = remembered;
  if (done.document_back === 'missing' || done.document_back === 'retake') await captureSide(flow, 'back');
}

/** The capture flow on the device that captures: intro → document → liveness → selfie → checking (the outcome follows from watch-decision.ts). */
export async function runCapture(flow: Flow): Promise<void> {
  try {
    await showIntro(flow);
    const started = await flow.client.start();
    flow.challenge = started.challenge;
    flow.documentTypes = started.document_types;
    const done = (await flow.client.state()).steps ?? NOTHING_CAPTURED;
    await resumeDocument(flow, done);
    // Production sessions follow the server-paced challenge; sandbox ones the challenge start returned.
    if (done.liveness !== 'captured')
      await (started.liveness_mode === 'paced' ? capturePacedLiveness(flow) : captureLiveness(flow));
    if (done.selfie !== 'captured') await captureSelfie(flow);
    await flow.integritySettled();
    await flow.client.submit();
    if (document.body.dataset.step !== 'done') showChecking(flow);
  } catch (error) {
    showError(flow, problemMessage(flow, error), () => void runCapture(flow));
  }
}
