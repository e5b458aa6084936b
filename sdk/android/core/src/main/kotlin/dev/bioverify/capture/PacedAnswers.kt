package dev.bioverify.capture

/** What a paced step asks: turn the head to a target and hold, or face the camera and open the mouth. */
enum class PacedStepKind { HOLD_POSE, OPEN_MOUTH }

/** The pacing rules a step carries (the same for every step today; read them, do not hard-code them). */
data class PacedLimits(
  val maxFramesPerChunk: Int,
  val maxFramesPerStep: Int,
  val maxChunksPerStep: Int,
  val maxFrameAgeMs: Int,
  val maxFrameGapMs: Int,
) {
  companion object {
    fun from(o: JsonObject) =
      PacedLimits(
        maxFramesPerChunk = o.int("max_frames_per_chunk"),
        maxFramesPerStep = o.int("max_frames_per_step"),
        maxChunksPerStep = o.int("max_chunks_per_step"),
        maxFrameAgeMs = o.int("max_frame_age_ms"),
        maxFrameGapMs = o.int("max_frame_gap_ms"),
      )
  }
}

/**
 * `POST …/liveness/steps` (201): one step of the server-paced challenge, drawn when revealed.
 * [targetYaw] > 0 when the applicant turns to their own left, [targetPitch] > 0 when they look up;
 * [deadlineMs] counts from when this answer was received (the device's clock may differ from the server's).
 */
data class PacedStep(
  val challengeId: String,
  val stepId: String,
  val index: Int,
  val count: Int,
  val kind: PacedStepKind,
  val targetYaw: Double,
  val targetPitch: Double,
  val toleranceDeg: Double,
  val holdMs: Long,
  val revealedAt: String,
  val deadlineAt: String,
  val deadlineMs: Long,
  val limits: PacedLimits,
  val attemptsLeft: Int,
) {
  /**
   * How long to capture after the reveal: the time to see the prompt and move (3 s) and the hold,
   * leaving the deadline's last 1.5 s to send the last chunk and complete the step.
   */
  val captureWindowMs: Long
    get() = maxOf(0L, minOf(deadlineMs - SEND_MARGIN_MS, REACTION_AND_MOVE_MS + holdMs))

  companion object {
    const val REACTION_AND_MOVE_MS = 3_000L
    const val SEND_MARGIN_MS = 1_500L

    fun from(o: JsonObject): PacedStep {
      val kind = o.string("kind")
      val target = o.obj("target")
      return PacedStep(
        challengeId = o.string("challenge_id"),
        stepId = o.string("step_id"),
        index = o.int("index"),
        count = o.int("count"),
        // New kinds come only with a changelog entry: an SDK that does not know one must be updated.
        kind = PacedStepKind.values().firstOrNull { it.name == kind } ?: throw CaptureException.malformed("a paced step of kind $kind, unknown to this SDK: update the app"),
        targetYaw = target.double("yaw"),
        targetPitch = target.double("pitch"),
        toleranceDeg = o.double("tolerance_deg"),
        holdMs = o.int("hold_ms").toLong(),
        revealedAt = o.string("revealed_at"),
        deadlineAt = o.string("deadline_at"),
        deadlineMs = o.int("deadline_ms").toLong(),
        limits = PacedLimits.from(o.obj("limits")),
        attemptsLeft = o.int("attempts_left"),
      )
    }
  }
}

/** `POST …/liveness/steps/{step_id}/frames`: a receipt only, no pose and no verdict. */
data class PacedChunkAnswer(val stepId: String, val received: Int, val framesTotal: Int, val deadlineMs: Long) {
  companion object {
    fun from(o: JsonObject) = PacedChunkAnswer(o.string("step_id"), o.int("received"), o.int("frames_total"), o.int("deadline_ms").toLong())
  }
}

/** What to do after a completed step. */
enum class PacedNext(val wire: String) {
  /** Reveal the next step now. */
  STEP("step"),

  /** The challenge is captured (or no attempt is left): take the selfie. */
  SELFIE("selfie"),

  /** This challenge cannot go on (too few frames with one face, or the deadline passed): reveal again. */
  RESTART("restart"),
}

/** `POST …/liveness/steps/{step_id}/complete`: a quality gate only; the verdict comes with the decision. */
data class PacedStepDone(val stepId: String, val framesTotal: Int, val faceFoundRatio: Double, val next: PacedNext, val attemptsLeft: Int) {
  companion object {
    fun from(o: JsonObject): PacedStepDone {
      val next = o.string("next")
      return PacedStepDone(
        stepId = o.string("step_id"),
        framesTotal = o.int("frames_total"),
        faceFoundRatio = o.double("face_found_ratio"),
        next = PacedNext.values().firstOrNull { it.wire == next } ?: throw CaptureException.malformed("unknown next $next"),
        attemptsLeft = o.int("attempts_left"),
      )
    }
  }
}
