package dev.bioverify.capture

/** Where an applicant is in the capture, in the order the server asks for the captures. */
enum class CaptureStep { START, DOCUMENT_FRONT, DOCUMENT_BACK, CHIP, LIVENESS, SELFIE, SUBMIT, DECISION, DONE }

/**
 * The capture flow as a state machine fed with the server's answers: which step is next, whether the
 * last capture must be retaken and why, and how many attempts are left. It makes no call itself, so
 * an app that draws its own screens can drive it, and [VerificationRunner] drives it for the others.
 *
 * @param chip whether to read the document's chip after its last side (only where the device has NFC):
 *   passports, and ID cards and residence permits, whose TD1 chips carry the same ICAO applet.
 */
class CaptureFlow(private val chip: Boolean = false) {
  var step: CaptureStep = CaptureStep.START
    private set

  /** Why the server asked for the last capture again (`DOCUMENT_UNREADABLE`, `FACE_NOT_DETECTED`...), or null. */
  var retakeReason: String? = null
    private set

  /** Attempts left at the current step after the last answer (3 per step before any answer). */
  var attemptsLeft: Int = ATTEMPTS
    private set

  var challenge: List<ChallengeStep> = emptyList()
    private set

  /** How this session captures liveness: the paced routes or the one-shot upload of [challenge]. */
  var livenessMode: LivenessMode = LivenessMode.ONE_SHOT
    private set

  var documentType: DocumentType? = null
    private set

  /** Reasons the server gave on the last attempt of a step, which the decision will carry. */
  val unresolved: MutableList<String> = ArrayList()

  fun onStarted(answer: StartAnswer) {
    expect(CaptureStep.START)
    challenge = answer.challenge
    livenessMode = answer.livenessMode
    moveTo(CaptureStep.DOCUMENT_FRONT)
  }

  fun onDocument(type: DocumentType, answer: DocumentAnswer) {
    expect(if (answer.side == DocumentSide.FRONT) CaptureStep.DOCUMENT_FRONT else CaptureStep.DOCUMENT_BACK)
    documentType = type
    if (answer.retake) return retake(answer.reason, answer.attemptsLeft)
    answer.reason?.let { unresolved.add(it) }
    moveTo(
      when (answer.next) {
        "back" -> CaptureStep.DOCUMENT_BACK
        else -> if (chip && type != DocumentType.DRIVING_LICENCE) CaptureStep.CHIP else CaptureStep.LIVENESS
      },
    )
  }

  /** The chip was read and uploaded, or skipped (no NFC, the applicant gave up): the chip is optional by default. */
  fun onChipDone() {
    expect(CaptureStep.CHIP)
    moveTo(CaptureStep.LIVENESS)
  }

  fun onLiveness(answer: LivenessAnswer) {
    expect(CaptureStep.LIVENESS)
    if (answer.retake) return retake(LIVENESS_RETAKE, answer.attemptsLeft)
    moveTo(CaptureStep.SELFIE)
  }

  /** A paced step was completed: the selfie comes once the server says so; `step` and `restart` stay at liveness. */
  fun onPacedStep(answer: PacedStepDone) {
    expect(CaptureStep.LIVENESS)
    when (answer.next) {
      PacedNext.SELFIE -> moveTo(CaptureStep.SELFIE)
      PacedNext.RESTART -> retake(PACED_RESTART, answer.attemptsLeft)
      PacedNext.STEP -> Unit
    }
  }

  fun onSelfie(answer: SelfieAnswer) {
    expect(CaptureStep.SELFIE)
    if (answer.retake) return retake(answer.reason ?: "FACE_NOT_DETECTED", answer.attemptsLeft)
    answer.reason?.let { unresolved.add(it) }
    moveTo(CaptureStep.SUBMIT)
  }

  fun onSubmitted() {
    expect(CaptureStep.SUBMIT)
    moveTo(CaptureStep.DECISION)
  }

  fun onDecided(status: StatusAnswer) {
    expect(CaptureStep.DECISION)
    check(status.isDecided) { "the decision is still ${status.decision}" }
    moveTo(CaptureStep.DONE)
  }

  private fun retake(reason: String?, left: Int) {
    retakeReason = reason
    attemptsLeft = left
  }

  private fun moveTo(next: CaptureStep) {
    step = next
    retakeReason = null
    attemptsLeft = ATTEMPTS
  }

  private fun expect(at: CaptureStep) = check(step == at) { "the flow is at $step, not $at" }

  companion object {
    const val ATTEMPTS = 3

    /** The retake reason of a liveness upload in which fewer than 80% of the frames show exactly one face. */
    const val LIVENESS_RETAKE = "FACE_NOT_FOUND_IN_FRAMES"

    /** The retake reason when the server restarts the paced challenge (too few frames with one face, or a deadline missed). */
    const val PACED_RESTART = "PACED_CHALLENGE_RESTART"
  }
}
