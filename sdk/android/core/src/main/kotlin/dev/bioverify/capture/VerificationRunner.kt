package dev.bioverify.capture

/** An image as captured, with its content type. */
class Capture(val bytes: ByteArray, val contentType: String = "image/jpeg")

/**
 * Where the captures come from: the camera and the applicant on a device (the AAR's Activity), or
 * prerecorded files in tests. Each call may block until the applicant has taken the picture;
 * [retakeReason] is the server's reason when the previous attempt must be taken again.
 */
interface CaptureSource {
  fun documentType(offered: List<DocumentType>): DocumentType

  fun document(side: DocumentSide, type: DocumentType, retakeReason: String?): Capture

  /** Reads the passport chip (keys from the document's MRZ) and signs [challenge]; null skips the chip. */
  fun chip(challenge: ChipChallenge): ChipData? = null

  /** Performs the one-shot challenge (sandbox sessions) and answers the frames to upload (see [FrameSelection]). */
  fun liveness(plan: LivenessPlan, retakeReason: String?): List<TimedFrame>

  /**
   * The camera for the server-paced challenge (production sessions, `liveness_mode` `paced`), or
   * null when this source cannot follow it (then a paced session fails with `CONFLICT`).
   */
  fun pacedFrames(): PacedFrameSource? = null

  fun selfie(retakeReason: String?): Capture

  /**
   * The device and face-camera facts, read after the selfie (the front camera's frames timed), sent
   * before submit; null sends nothing (the report's `capture_integrity` is then NOT_PERFORMED).
   */
  fun integritySignals(): IntegritySignals? = null
}

/** What the flow tells the app as it goes (all optional). */
interface VerificationListener {
  fun onStep(step: CaptureStep, retakeReason: String?, attemptsLeft: Int) {}

  /** A paced liveness step was completed; [done] says what comes next (the verdict is never told). */
  fun onPacedStep(step: PacedStep, done: PacedStepDone) {}
}

/**
 * Drives one session's whole capture with [CaptureClient] and [CaptureFlow]: start, document
 * side(s), chip when the source reads it, liveness (paced with [PacedLivenessDriver] when `start`
 * says so, else one-shot), selfie, submit, then waits for the decision.
 * Blocking: run it off the main thread. Answers the final status (`VERIFIED`, `FAILED`...), the
 * same the integrator's server then reads with its API key.
 */
class VerificationRunner(
  private val client: CaptureClient,
  private val source: CaptureSource,
  private val listener: VerificationListener = object : VerificationListener {},
  private val readChip: Boolean = false,
  private val decisionTimeoutMs: Long = 120_000,
  /** The paced challenge's monotonic clock (ms) and wait; tests pass a fake clock. */
  private val clock: () -> Long = { System.nanoTime() / 1_000_000 },
  private val sleep: (Long) -> Unit = { Thread.sleep(it) },
) {
  val flow = CaptureFlow(chip = readChip)

  fun run(): StatusAnswer {
    val started = client.start()
    flow.onStarted(started)
    val type = source.documentType(started.documentTypes)
    var status: StatusAnswer? = null
    while (flow.step != CaptureStep.DONE) {
      listener.onStep(flow.step, flow.retakeReason, flow.attemptsLeft)
      when (flow.step) {
        CaptureStep.DOCUMENT_FRONT, CaptureStep.DOCUMENT_BACK -> {
          val side = if (flow.step == CaptureStep.DOCUMENT_FRONT) DocumentSide.FRONT else DocumentSide.BACK
          val image = source.document(side, type, flow.retakeReason)
          flow.onDocument(type, client.document(side, type, image.bytes, image.contentType))
        }
        CaptureStep.CHIP -> {
          source.chip(client.chipChallenge())?.let { client.chip(it) }
          flow.onChipDone()
        }
        CaptureStep.LIVENESS ->
          if (flow.livenessMode == LivenessMode.PACED) pacedLiveness() else oneShotLiveness()
        CaptureStep.SELFIE -> {
          val image = source.selfie(flow.retakeReason)
          flow.onSelfie(client.selfie(image.bytes, image.contentType))
        }
        CaptureStep.SUBMIT -> {
          sendIntegrity()
          client.submit()
          flow.onSubmitted()
        }
        CaptureStep.DECISION -> {
          val decided = client.awaitDecision(decisionTimeoutMs)
          if (!decided.isDecided) throw CaptureException(ErrorCode.NETWORK, "no decision within $decisionTimeoutMs ms (last: ${decided.decision})")
          status = decided
          flow.onDecided(decided)
        }
        CaptureStep.START, CaptureStep.DONE -> error("unreachable")
      }
    }
    listener.onStep(CaptureStep.DONE, null, 0)
    return status!!
  }

  private fun pacedLiveness() {
    val frames = source.pacedFrames() ?: throw CaptureException(ErrorCode.CONFLICT, "this session's liveness is paced, and the capture source has no paced frame source")
    val driver =
      PacedLivenessDriver(client, frames, clock = clock, sleep = sleep) { step, done ->
        listener.onPacedStep(step, done)
        flow.onPacedStep(done)
      }
    driver.run()
  }

  /** Signals never block the applicant: a refusal (a sixth upload, a bad field) leaves the check NOT_PERFORMED. */
  private fun sendIntegrity() {
    val signals = source.integritySignals() ?: return
    try {
      client.integrity(signals)
    } catch (e: CaptureException) {
      if (e.httpStatus == null || e.httpStatus !in 400..499) throw e
    }
  }

  private fun oneShotLiveness() {
    val frames = FrameSelection.select(source.liveness(LivenessPlan(flow.challenge), flow.retakeReason))
    flow.onLiveness(client.liveness(frames.map { it.jpeg }, frames.map { it.timestampMs }))
  }
}
