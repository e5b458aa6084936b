package dev.bioverify.capture.e2e

import dev.bioverify.capture.Capture
import dev.bioverify.capture.CaptureSource
import dev.bioverify.capture.DocumentSide
import dev.bioverify.capture.DocumentType
import dev.bioverify.capture.IntegritySignals
import dev.bioverify.capture.Json
import dev.bioverify.capture.JsonObject
import dev.bioverify.capture.LivenessPlan
import dev.bioverify.capture.PacedFrameSource
import dev.bioverify.capture.PacedStep
import dev.bioverify.capture.TimedFrame
import java.io.File

/**
 * An applicant made of the project's generated test files (`npm run testdata:*`, under
 * .state/testdata): a synthetic passport printed with a real portrait, the synthetic head-motion
 * frames of the same person performing TURN_LEFT, TURN_RIGHT, BLINK, and an augmented selfie.
 * It plays the camera's part for [dev.bioverify.capture.VerificationRunner].
 */
class RecordedApplicant(
  private val testdata: File,
  val identity: String,
  documentOf: String = identity,
  /** The camera for the paced challenge; by default a replay of the recording (see [pacedFrames]). */
  private val pacedSource: PacedFrameSource? = null,
  /** What the applicant's "device" says about itself before submit; null sends nothing. */
  private val integrity: IntegritySignals? = null,
) : CaptureSource {
  val passport: JsonObject = passportOf(documentOf)
  val challenge: List<String>
  private val frames: List<File>

  init {
    val sequence =
      File(testdata, "liveness/sequences.jsonl").readLines().filter { it.isNotBlank() }.map { JsonObject(asMap(Json.parse(it))) }.first {
        it.string("name").startsWith("${identity}__") && it.string("kind") == "synthetic-performs-challenge"
      }
    challenge = sequence.strings("challenge")
    frames = sequence.strings("frames").map { File(testdata, "liveness/$it") }
  }

  val name: String
    get() = passport.obj("expected").obj("fields").string("name")

  val documentRequests = ArrayList<Pair<DocumentSide, String?>>()

  override fun documentType(offered: List<DocumentType>): DocumentType = DocumentType.PASSPORT.also { check(it in offered) }

  override fun document(side: DocumentSide, type: DocumentType, retakeReason: String?): Capture {
    documentRequests.add(side to retakeReason)
    return Capture(File(testdata, "documents/${passport.string("file")}").readBytes())
  }

  override fun liveness(plan: LivenessPlan, retakeReason: String?): List<TimedFrame> {
    // The server takes at least 8 frames; a short sequence is held on its last pose, as a camera would.
    val held = frames + List(maxOf(0, 8 - frames.size)) { frames.last() }
    return held.mapIndexed { i, f -> TimedFrame(f.readBytes(), i * plan.durationMs / held.size) }
  }

  /** The steps the paced challenge revealed to the replay, in order. */
  val pacedSteps = ArrayList<PacedStep>()

  /**
   * A replay for the paced challenge: the same recording (a head turning left, right, blinking)
   * played from each reveal at 300 ms a frame, whatever the step asks. It cannot follow the drawn
   * targets, which is what the paced challenge is for.
   */
  override fun pacedFrames(): PacedFrameSource =
    pacedSource ?: object : PacedFrameSource {
      private val bytes = frames.map { it.readBytes() }

      override fun onStep(step: PacedStep) {
        pacedSteps.add(step)
      }

      override fun frame(step: PacedStep, elapsedMs: Long): ByteArray = bytes[(elapsedMs / 300 % bytes.size).toInt()]
    }

  override fun integritySignals(): IntegritySignals? = integrity

  override fun selfie(retakeReason: String?): Capture = Capture(File(testdata, "faces/${identity}__augmented-1.jpg").readBytes())

  private fun passportOf(portrait: String): JsonObject {
    val labels = JsonObject(asMap(Json.parse(File(testdata, "documents/labels.json").readText())))
    return labels.objects("documents").first {
      it.string("format") == "TD3" && it.string("variant") == "clean" && it.obj("generation").string("portrait") == portrait
    }
  }

  @Suppress("UNCHECKED_CAST")
  private fun asMap(v: Any?) = v as Map<String, Any?>
}
