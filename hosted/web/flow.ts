import type { CaptureClient, ChallengeStep, DocumentType, ProgressStep } from './capture-client';
import { Facing, openCamera, stopCamera } from './camera';
import { collectIntegrity } from './capture-integrity';
import { isMessageKey, Translate } from './messages';
import type { PageConfig } from './page-config';
import type { ParentBridge } from './parent-bridge';

export type StepName =
  | 'intro'
  | 'document-type'
  | 'document-front'
  | 'document-back'
  | 'liveness'
  | 'selfie'
  | 'checking'
  | 'done'
  | 'error'
  | 'handoff';

type Child = Node | string | null | undefined | false;

/** The timing window, the probe and the upload take about 2.5 s; past this the capture goes on without them. */
const INTEGRITY_DEADLINE_MS = 6000;

/** What every step shares: the session's capture client, the strings, the frame and the camera. */
export class Flow {
  challenge: ChallengeStep[] = [];
  documentTypes: DocumentType[] = ['passport', 'id_card'];
  documentType: DocumentType = 'passport';
  /** The last coarse step the server reported, for the hand-off view drawn after it arrived. */
  phoneStep: ProgressStep | null = null;
  private finished = false;
  private stream: MediaStream | null = null;
  private facing: Facing | null = null;
  private integrity: Promise<void> | null = null;

  constructor(
    readonly config: PageConfig,
    readonly client: CaptureClient,
    readonly bridge: ParentBridge,
    readonly t: Translate,
    private readonly root: HTMLElement,
  ) {}

  /**
   * Replaces the view with one step: sets the test hook `body[data-step]`, moves focus to the new
   * heading so keyboard and screen-reader users land on it, and tells the framing page.
   */
  /** `title` is a message key (shown translated) or text shown as is. */
  show(step: StepName, title: string, ...content: Child[]): HTMLElement {
    const heading = document.createElement('h1');
    heading.tabIndex = -1;
    heading.textContent = isMessageKey(title) ? this.t(title) : title;
    const section = document.createElement('section');
    section.className = `step step-${step}`;
    section.append(heading, ...content.filter((c): c is Node | string => Boolean(c)));
    // Once decided the outcome stays: a capture still in flight must not draw over it.
    if (this.finished) return section;
    this.finished = step === 'done';
    this.root.replaceChildren(section);
    const changed = document.body.dataset.step !== step;
    document.body.dataset.step = step;
    heading.focus();
    if (changed) this.bridge.post('step', { step });
    return section;
  }

  /** The camera facing `facing`, reusing the open one (no new permission prompt between retakes). */
  async camera(video: HTMLVideoElement, facing: Facing): Promise<MediaStream> {
    if (this.stream && this.facing === facing && this.stream.getVideoTracks().some((t) => t.readyState === 'live')) {
      video.muted = true;
      video.playsInline = true;
      video.srcObject = this.stream;
      await video.play().catch(() => undefined);
      return this.stream;
    }
    this.releaseCamera();
    this.stream = await openCamera(video, facing);
    this.facing = facing;
    return this.stream;
  }

  /**
   * Collects the capture-integrity signals once, from the first live face camera, and sends them.
   * Never in the applicant's way: a failure or a slow camera leaves the check NOT_PERFORMED.
   */
  checkIntegrity(video: HTMLVideoElement): Promise<void> {
    if (!this.integrity && this.stream && this.facing === 'user') {
      const collected = collectIntegrity(video, this.stream).then((signals) => this.client.putIntegrity(signals));
      const deadline = new Promise((resolve) => setTimeout(resolve, INTEGRITY_DEADLINE_MS));
      this.integrity = Promise.race([collected, deadline]).then(
        () => undefined,
        () => undefined,
      );
    }
    return this.integrity ?? Promise.resolve();
  }

  /** Resolves once the signals were sent, or given up on (submit waits for it: a submitted capture takes no more writes). */
  integritySettled(): Promise<void> {
    return this.integrity ?? Promise.resolve();
  }

  releaseCamera(): void {
    stopCamera(this.stream);
    this.stream = null;
    this.facing = null;
  }
}
