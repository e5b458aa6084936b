import type { CaptureClient, ChallengeStep, DocumentType, ProgressStep } from './capture-client';
import { Facing, openCamera, stopCamera } from './camera';
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

  releaseCamera(): void {
    stopCamera(this.stream);
    this.stream = null;
    this.facing = null;
  }
}
