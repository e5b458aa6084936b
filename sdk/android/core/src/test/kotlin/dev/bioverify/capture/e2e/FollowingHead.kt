package dev.bioverify.capture.e2e

import dev.bioverify.capture.HttpRequest
import dev.bioverify.capture.PacedFrameSource
import dev.bioverify.capture.PacedStep
import dev.bioverify.capture.PacedStepKind
import dev.bioverify.capture.UrlConnectionTransport

/**
 * A live applicant for the paced challenge: the project's synthetic head (a real photo warped to a
 * yaw, a pitch and a jaw drop: `SyntheticHead` in api/test/capture/support/paced-performer.ts),
 * rendered on demand by the jest side at [rendererUrl]. It moves as that file's performer does: a
 * reaction time after each reveal, then toward the revealed target at [degreesPerSecond] with an
 * eased start and stop, the mouth opening for OPEN_MOUTH and closing during the next move. The
 * pose is a function of the step and the time the SDK's driver asks for, so it follows targets
 * it could not know beforehand, as a person in front of the camera does.
 */
class FollowingHead(private val rendererUrl: String, private val reactionMs: Long = 250, private val degreesPerSecond: Double = 90.0) : PacedFrameSource {
  data class Pose(val yaw: Double, val pitch: Double, val mouth: Double)

  private val transport = UrlConnectionTransport()
  private var from = Pose(0.0, 0.0, 0.0)
  private var target = from
  private var last = from

  override fun onStep(step: PacedStep) {
    from = last
    // Half the warp's jaw drop, where FaceMesh reads this crude warp's lip gap best (as the performer).
    target = if (step.kind == PacedStepKind.OPEN_MOUTH) Pose(0.0, 0.0, 0.5) else Pose(step.targetYaw, step.targetPitch, 0.0)
  }

  override fun frame(step: PacedStep, elapsedMs: Long): ByteArray {
    val travelMs = Math.hypot(target.yaw - from.yaw, target.pitch - from.pitch) / degreesPerSecond * 1000
    val k = ((elapsedMs - reactionMs) / maxOf(1.0, travelMs)).coerceIn(0.0, 1.0)
    val ease = k * k * (3 - 2 * k)
    last = Pose(from.yaw + (target.yaw - from.yaw) * ease, from.pitch + (target.pitch - from.pitch) * ease, from.mouth + (target.mouth - from.mouth) * ease)
    val response = transport.execute(HttpRequest("GET", "$rendererUrl/frame?yaw=${last.yaw}&pitch=${last.pitch}&mouth=${last.mouth}"))
    check(response.status == 200) { "the head renderer answered ${response.status}" }
    return response.body
  }
}
