package dev.bioverify.capture

/**
 * The timing of the one-shot liveness challenge: a lead-in to settle the face, then each step
 * prompted for [stepMs]. The frames are captured throughout and uploaded together.
 */
class LivenessPlan(val steps: List<ChallengeStep>, val leadInMs: Long = 800, val stepMs: Long = 1_600) {
  val durationMs: Long
    get() = leadInMs + steps.size * stepMs

  /** The step to prompt at [elapsedMs] since the challenge started; null in the lead-in and after the end. */
  fun stepAt(elapsedMs: Long): ChallengeStep? {
    if (elapsedMs < leadInMs || elapsedMs >= durationMs) return null
    return steps[((elapsedMs - leadInMs) / stepMs).toInt()]
  }
}

/** A captured frame and its time in ms since the challenge started. */
class TimedFrame(val jpeg: ByteArray, val timestampMs: Long)

/** Chooses the frames to upload within the server's limits: 8 to 60, increasing timestamps, spread evenly in time. */
object FrameSelection {
  const val MIN_FRAMES = 8
  const val MAX_FRAMES = 60
  const val MAX_FRAME_BYTES = 1024 * 1024

  fun select(frames: List<TimedFrame>, max: Int = MAX_FRAMES): List<TimedFrame> {
    require(max in MIN_FRAMES..MAX_FRAMES) { "between $MIN_FRAMES and $MAX_FRAMES frames" }
    // Equal timestamps would be refused (they must increase), and oversize frames too.
    val usable = ArrayList<TimedFrame>()
    for (f in frames.sortedBy { it.timestampMs }) {
      if (f.jpeg.size > MAX_FRAME_BYTES) continue
      if (usable.isNotEmpty() && usable.last().timestampMs >= f.timestampMs) continue
      usable.add(f)
    }
    if (usable.size < MIN_FRAMES) throw IllegalStateException("only ${usable.size} usable frames; the challenge needs $MIN_FRAMES")
    if (usable.size <= max) return usable
    val picked = LinkedHashSet<Int>()
    for (i in 0 until max) picked.add(Math.round(i * (usable.size - 1).toDouble() / (max - 1)).toInt())
    return picked.map { usable[it] }
  }
}

/** A face the on-device detector found, in the frame's pixel coordinates. */
data class FaceBox(val left: Float, val top: Float, val right: Float, val bottom: Float) {
  val width: Float
    get() = right - left
  val height: Float
    get() = bottom - top
}

enum class Framing { OK, NO_FACE, SEVERAL_FACES, TOO_FAR, TOO_CLOSE, OFF_CENTRE }

/**
 * The face-in-frame and framing gate a client computes from its own face detector before and during
 * the challenge, so the applicant is told to move before frames are wasted. The server's gate asks
 * for a retake when fewer than 80% of the frames show exactly one face; [FramingTally] mirrors it.
 */
class FramingGate(
  private val minFaceWidth: Float = 0.2f,
  private val maxFaceWidth: Float = 0.75f,
  private val maxCentreOffset: Float = 0.2f,
) {
  fun judge(faces: List<FaceBox>, frameWidth: Int, frameHeight: Int): Framing {
    if (faces.isEmpty()) return Framing.NO_FACE
    if (faces.size > 1) return Framing.SEVERAL_FACES
    val face = faces[0]
    val share = face.width / frameWidth
    if (share < minFaceWidth) return Framing.TOO_FAR
    if (share > maxFaceWidth) return Framing.TOO_CLOSE
    val dx = ((face.left + face.right) / 2 - frameWidth / 2f) / frameWidth
    val dy = ((face.top + face.bottom) / 2 - frameHeight / 2f) / frameHeight
    if (Math.abs(dx) > maxCentreOffset || Math.abs(dy) > maxCentreOffset) return Framing.OFF_CENTRE
    return Framing.OK
  }
}

/** Counts the frames that show exactly one face, as the server's quality gate does. */
class FramingTally {
  private var total = 0
  private var oneFace = 0

  fun add(faceCount: Int) {
    total++
    if (faceCount == 1) oneFace++
  }

  val ratio: Double
    get() = if (total == 0) 0.0 else oneFace.toDouble() / total

  /** Whether the server's gate (at least 80% of frames with exactly one face) would pass. */
  val passes: Boolean
    get() = total > 0 && ratio >= 0.8
}
