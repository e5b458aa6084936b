import { CaptureApiError } from './capture-client';
import type { Flow } from './flow';
import { showChecking } from './steps/checking-step';
import { captureDocument } from './steps/document-steps';
import { chooseDocumentType, showIntro } from './steps/intro-step';
import { captureLiveness } from './steps/liveness-step';
import { showError } from './steps/outcome-step';
import { captureSelfie } from './steps/selfie-step';

function problemMessage(flow: Flow, error: unknown): string {
  if (!(error instanceof CaptureApiError)) return flow.t('errorGeneric');
  if (error.status === 409 && error.code === 'CONFLICT') return flow.t('errorBusy');
  if (error.status === 429) return flow.t('errorTooMany');
  return flow.t('errorGeneric');
}

/** The capture flow on the device that captures: intro → document → liveness → selfie → checking (the outcome follows from watch-decision.ts). */
export async function runCapture(flow: Flow): Promise<void> {
  try {
    await showIntro(flow);
    const started = await flow.client.start();
    flow.challenge = started.challenge;
    flow.documentTypes = started.document_types;
    await chooseDocumentType(flow);
    await captureDocument(flow);
    await captureLiveness(flow);
    await captureSelfie(flow);
    await flow.client.submit();
    if (document.body.dataset.step !== 'done') showChecking(flow);
  } catch (error) {
    showError(flow, problemMessage(flow, error), () => void runCapture(flow));
  }
}
