package dev.bioverify.capture

/**
 * The camera during the server-paced challenge. The driver asks for frames on its own clock from
 * each step's reveal; the source shows the prompt and hands over what the camera sees.
 */
interface PacedFrameSource {
  /** A step was revealed: show its prompt now (HOLD_POSE: a dot where the nose should point; OPEN_MOUTH). */
  fun onStep(step: PacedStep) {}

  /** The JPEG captured at [elapsedMs] since the reveal was received (the camera's latest frame), or null when none is ready. */
  fun frame(step: PacedStep, elapsedMs: Long): ByteArray?

  /** The challenge is over, captured or not: the camera may stop. */
  fun onFinished() {}
}

/**
 * When to take and send a step's frames within its [PacedStep.limits]: a frame every [frameGapMs]
 * (5 a second unless the step's frame bound needs fewer), sent in chunks of [chunkSize] as they
 * are captured, or sooner once the oldest held frame is [maxHoldMs] old, until [windowMs]. The
 * frame bound wins over `max_frame_gap_ms` if a server ever sets them at odds: the server refuses
 * a frame too many, while a wide gap is only judged at the decision.
 */
class PacedLivenessPlan(val step: PacedStep, frameIntervalMs: Long = 200, framesPerChunk: Int = 5) {
  val windowMs: Long = step.captureWindowMs

  val frameGapMs: Long = maxOf(frameIntervalMs, ceilDiv(windowMs, maxOf(1, step.limits.maxFramesPerStep - 1).toLong()))

  /** At least the size that keeps a full step within the chunk bound, at most the chunk's frame bound. */
  val chunkSize: Int =
    framesPerChunk.coerceAtLeast(ceilDiv(step.limits.maxFramesPerStep.toLong(), step.limits.maxChunksPerStep.toLong()).toInt()).coerceAtMost(step.limits.maxFramesPerChunk).coerceAtLeast(1)

  /** Frames are sent well before the server's `max_frame_age_ms` refuses them (and at least every second). */
  val maxHoldMs: Long = minOf(1_000L, step.limits.maxFrameAgeMs / 2L)

  private companion object {
    fun ceilDiv(a: Long, b: Long) = (a + b - 1) / b
  }
}

/**
 * Drives the server-paced challenge (`liveness_mode` `paced`, docs/paced-challenge.md): reveals a
 * step, captures frames on the clock from the reveal's arrival, sends them in chunks as they are
 * captured, completes the step once its hold is over, and goes on as the server says: the next
 * step, a new challenge (`restart`), or the selfie. Blocking: run it off the main thread.
 *
 * [clock] is a monotonic clock in ms; [sleep] waits. Both are parameters so tests can run on a fake clock.
 */
class PacedLivenessDriver(
  private val client: CaptureClient,
  private val source: PacedFrameSource,
  private val frameIntervalMs: Long = 200,
  private val framesPerChunk: Int = 5,
  private val clock: () -> Long = { System.nanoTime() / 1_000_000 },
  private val sleep: (Long) -> Unit = { Thread.sleep(it) },
  private val onCompleted: (PacedStep, PacedStepDone) -> Unit = { _, _ -> },
) {
  /** Runs challenges until the server says `selfie`; answers that last completion. */
  fun run(): PacedStepDone {
    try {
      while (true) {
        val step = client.revealStep()
        val revealedAt = clock()
        val done = perform(step, revealedAt)
        onCompleted(step, done)
        if (done.next == PacedNext.SELFIE) return done
      }
    } finally {
      source.onFinished()
    }
  }

  /** One revealed step: its frames in chunks while the capture window lasts, then its completion. */
  fun perform(step: PacedStep, revealedAt: Long): PacedStepDone {
    val plan = PacedLivenessPlan(step, frameIntervalMs, framesPerChunk)
    source.onStep(step)
    val batch = ArrayList<TimedFrame>()
    var chunksSent = 0
    var framesTaken = 0
    var lastT = -1L
    var due = 0L

    fun send() {
      client.sendStepFrames(step.stepId, batch.map { it.jpeg }, batch.map { it.timestampMs })
      chunksSent++
      batch.clear()
    }

    while (framesTaken < step.limits.maxFramesPerStep && chunksSent < step.limits.maxChunksPerStep) {
      val wait = due - (clock() - revealedAt)
      if (wait > 0) sleep(wait)
      // Timestamps increase strictly: two frames never share a millisecond.
      val t = maxOf(clock() - revealedAt, lastT + 1)
      if (t > plan.windowMs) break
      val jpeg = source.frame(step, t)
      if (jpeg != null && jpeg.isNotEmpty() && jpeg.size <= FrameSelection.MAX_FRAME_BYTES) {
        batch.add(TimedFrame(jpeg, t))
        framesTaken++
        lastT = t
      }
      val full = batch.size >= plan.chunkSize
      // An early chunk is sent only while one is left for the rest of the step.
      val stale = batch.isNotEmpty() && t - batch[0].timestampMs >= plan.maxHoldMs && chunksSent < step.limits.maxChunksPerStep - 1
      if (full || stale) send()
      // A camera behind schedule drops frames rather than bursting them.
      due = maxOf(due + plan.frameGapMs, t + plan.frameGapMs / 2)
    }
    if (batch.isNotEmpty() && chunksSent < step.limits.maxChunksPerStep) send()
    return client.completeStep(step.stepId)
  }
}
