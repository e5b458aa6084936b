import { CaptureClient } from './capture-client';
import { Flow } from './flow';
import { translator } from './messages';
import { applyTheme, readPageConfig } from './page-config';
import { ParentBridge } from './parent-bridge';
import { runCapture } from './phone-flow';
import { showHandoff } from './steps/handoff-step';
import { showError } from './steps/outcome-step';
import { watchDecision } from './watch-decision';

function localStore(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage blocked (third-party frame, private mode): the token lives in memory only
  }
}

/** Entry point of the hosted page's script: wires the page's parts and picks the desktop or phone path. */
async function main(): Promise<void> {
  const config = readPageConfig(document.body, window);
  const root = document.getElementById('flow');
  if (!root || !config.sessionId) return;
  applyTheme(document, window);
  const t = translator(config.locale);
  const bridge = new ParentBridge(window, config.sessionId, config.parentOrigin);
  bridge.watchHeight(document);
  const flow = new Flow(config, new CaptureClient(config.sessionId, localStore()), bridge, t, root);
  const qr = document.getElementById('handoff-qr');
  qr?.remove();
  let initial;
  try {
    initial = await flow.client.state();
  } catch {
    showError(flow, t('errorClosed'));
    return;
  }
  watchDecision(flow, initial);
  if (initial.decision !== 'none' || initial.status === 'EXPIRED') return;
  if (config.desktop && qr) {
    qr.hidden = false;
    await showHandoff(flow, qr); // resolves only when the applicant continues on this computer
  }
  await runCapture(flow);
}

void main();
