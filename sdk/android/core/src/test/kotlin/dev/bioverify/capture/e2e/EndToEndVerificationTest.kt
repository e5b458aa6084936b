package dev.bioverify.capture.e2e

import dev.bioverify.capture.CaptureClient
import dev.bioverify.capture.CaptureException
import dev.bioverify.capture.CaptureStep
import dev.bioverify.capture.DocumentSide
import dev.bioverify.capture.ErrorCode
import dev.bioverify.capture.HttpRequest
import dev.bioverify.capture.HttpResponse
import dev.bioverify.capture.HttpTransport
import dev.bioverify.capture.JsonObject
import dev.bioverify.capture.PacedNext
import dev.bioverify.capture.PacedStep
import dev.bioverify.capture.PacedStepDone
import dev.bioverify.capture.PacedStepKind
import dev.bioverify.capture.UrlConnectionTransport
import dev.bioverify.capture.VerificationListener
import dev.bioverify.capture.VerificationRunner
import dev.bioverify.capture.IntegritySignals
import dev.bioverify.capture.DeviceFacts
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable
import java.io.File

/**
 * The core drives whole verifications against the real stack (API, worker, inference on the real
 * models, FerretDB, Redis) that sdk/android/android-sdk.test.ts starts, which also checks these
 * tests ran rather than being skipped: sandbox sessions with the one-shot challenge, the chip
 * upload, and a production session through the paced routes. Run alone, they are skipped: they
 * need that stack.
 */
@EnabledIfEnvironmentVariable(named = "BIOVERIFY_E2E_BASE_URL", matches = "https?://.+")
class EndToEndVerificationTest {
  private val baseUrl = System.getenv("BIOVERIFY_E2E_BASE_URL")
  private val integrator =
    IntegratorServer(baseUrl, System.getenv("BIOVERIFY_E2E_API_KEY"), System.getenv("BIOVERIFY_E2E_WEBHOOK_URL"), System.getenv("BIOVERIFY_E2E_LIVE_API_KEY"))
  private val testdata = File(System.getenv("BIOVERIFY_E2E_TESTDATA"))
  private val chips = File(System.getenv("BIOVERIFY_E2E_CHIP_TESTDATA") ?: "")

  @Test
  fun `a genuine applicant's passport, challenge and selfie are VERIFIED, with the report to show for it, the SDK's device block recorded (an emulator, as this JVM is no phone)`() {
    val applicant = RecordedApplicant(testdata, "astronaut", integrity = IntegritySignals.collect(ThisJvm, null))
    val sessionId = integrator.createSession(applicant.name, applicant.challenge)
    val steps = ArrayList<CaptureStep>()
    val listener =
      object : VerificationListener {
        override fun onStep(step: CaptureStep, retakeReason: String?, attemptsLeft: Int) {
          steps.add(step)
        }
      }

    val status = VerificationRunner(CaptureClient(baseUrl, sessionId), applicant, listener).run()

    assertEquals("VERIFIED", status.status)
    assertEquals("https://example.com/done?session_id=$sessionId&status=VERIFIED", status.redirectUrl)
    assertEquals(listOf(CaptureStep.DOCUMENT_FRONT, CaptureStep.LIVENESS, CaptureStep.SELFIE, CaptureStep.SUBMIT, CaptureStep.DECISION, CaptureStep.DONE), steps)
    assertEquals(listOf(DocumentSide.FRONT to null), applicant.documentRequests)
    val result = integrator.result(sessionId)
    assertEquals("VERIFIED", result.string("status"))
    val checks = result.obj("checks")
    for (check in listOf("document", "liveness", "antispoof", "face_match")) assertEquals("PASS", checks.string(check), check)
    assertEquals(applicant.name, result.obj("person").string("name"))
    assertEquals("passport", result.obj("person").string("document_type"))
    val report = integrator.report(sessionId)
    assertEquals(sessionId, report.string("session_id"))
    assertEquals("TD3", report.obj("document").string("format"))
    assertEquals("PASS", report.obj("checks").obj("face_match").string("verdict"))
    // The server recorded what the SDK sent before submit; a sandbox session reports it and never fails on it.
    val integrity = report.obj("checks").obj("capture_integrity")
    assertEquals("FAIL", integrity.string("verdict"))
    assertEquals("CAPTURE_TAMPERED", integrity.string("reason"))
    val evidence = integrity.obj("integrity")
    assertEquals(false, evidence.boolean("enforced"))
    assertEquals(listOf("emulator"), evidence.strings("flags"))
    assertEquals("android", evidence.obj("signals").string("client"))
    val device = evidence.obj("signals").obj("native").obj("device")
    assertEquals(
      mapOf(
        "emulator" to true,
        "debugger_attached" to ThisJvm.debuggerAttached(),
        "rooted_or_jailbroken" to null,
        "hooking_framework" to null,
        "app_id" to "dev.bioverify.e2e",
        "os_version" to System.getProperty("os.version").take(32),
        "sdk_version" to IntegritySignals.SDK_VERSION,
      ),
      device.map,
    )
    assertEquals(null, evidence.obj("signals").obj("native").map["camera"])
  }

  @Test
  fun `someone presenting another person's passport is FAILED as NAME_MISMATCH on the document check`() {
    // The session expects the astronaut; the applicant shows, performs and takes the selfie as the bearded man.
    val expected = RecordedApplicant(testdata, "astronaut")
    val applicant = RecordedApplicant(testdata, "bearded-man")
    val sessionId = integrator.createSession(expected.name, applicant.challenge)

    val status = VerificationRunner(CaptureClient(baseUrl, sessionId), applicant).run()

    assertEquals("FAILED", status.status)
    val result = integrator.result(sessionId)
    assertEquals("NAME_MISMATCH", result.stringOrNull("failure_reason"))
    assertEquals("FAIL", result.obj("checks").string("document"))
    val document = integrator.report(sessionId).obj("checks").obj("document")
    assertEquals("FAIL", document.string("verdict"))
    val nameMatch = document.objects("scores").first { it.string("name") == "name_match" }
    assertEquals(0.0, nameMatch.double("value"))
  }

  @Test
  fun `a chip's files and its answer to the server's challenge are uploaded, RSA and EC keys alike, and the server names what it received`() {
    val cases =
      mapOf(
        "chip-01-valid" to listOf("active_authentication", "dg1", "dg15", "dg2", "sod"),
        "chip-02-valid" to listOf("active_authentication", "dg1", "dg14", "dg15", "dg2", "sod"),
      )
    for ((id, received) in cases) {
      val chip = TestChip(chips, id)
      val client = CaptureClient(baseUrl, integrator.createSession("Anyone", ONE_SHOT_CHALLENGE))
      client.start()

      val challenge = client.chipChallenge()
      val read = chip.read(challenge.challenge)
      val answer = client.chip(read)

      assertEquals(8, challenge.challenge.size, id)
      val signature = read.activeAuthentication!!.signature
      assertTrue(chip.verifies(challenge.challenge, signature), "$id: the answer verifies with EF.DG15's key")
      assertFalse(chip.verifies(ByteArray(8), signature), "$id: and only for the server's challenge")
      assertEquals(200, chip.expectedPutStatus)
      assertEquals(true, answer.boolean("well_formed"), id)
      assertEquals(received, answer.strings("received"), id)
    }
  }

  @Test
  fun `a chip whose EF_SOD is malformed is refused with 422 VALIDATION_ERROR naming the field`() {
    val chip = TestChip(chips, "chip-16-malformed-sod")
    val client = CaptureClient(baseUrl, integrator.createSession("Anyone", ONE_SHOT_CHALLENGE))
    client.start()

    val refused = assertThrows<CaptureException> { client.chip(chip.read(client.chipChallenge().challenge)) }

    assertEquals(chip.expectedPutStatus, refused.httpStatus)
    assertEquals(ErrorCode.VALIDATION_ERROR, refused.code)
    assertTrue(refused.details.any { it.field.contains("sod") }, refused.details.toString())
  }

  @Test
  fun `a production session's liveness is revealed step by step through the paced routes, and a replay that cannot follow the steps is FAILED on liveness`() {
    val applicant = RecordedApplicant(testdata, "astronaut")
    val sessionId = integrator.createLiveSession(applicant.name)
    val transport = RecordingTransport()
    val completed = ArrayList<PacedStepDone>()
    val listener =
      object : VerificationListener {
        override fun onPacedStep(step: PacedStep, done: PacedStepDone) {
          completed.add(done)
        }
      }

    val status = VerificationRunner(CaptureClient(baseUrl, sessionId, transport), applicant, listener).run()

    // Each step as the server drew it, within the documented ranges.
    val steps = applicant.pacedSteps
    assertEquals(steps.size, completed.size)
    for (step in steps) {
      assertEquals(4, step.count)
      assertTrue(step.holdMs in 600L..1_600L, "hold ${step.holdMs}")
      assertEquals(3_000 + step.holdMs + 1_500, step.deadlineMs)
      if (step.kind == PacedStepKind.HOLD_POSE) {
        assertTrue(Math.abs(step.targetYaw) in 28.0..36.0 && step.targetPitch in -8.0..8.0, "target ${step.targetYaw}, ${step.targetPitch}")
      } else {
        assertEquals(0.0 to 0.0, step.targetYaw to step.targetPitch)
      }
    }
    for (challenge in steps.groupBy { it.challengeId }.values) {
      assertEquals((0 until challenge.size).toList(), challenge.map { it.index })
      assertEquals(PacedStepKind.HOLD_POSE, challenge[0].kind)
      assertTrue(challenge.count { it.kind == PacedStepKind.OPEN_MOUTH } <= 1)
    }
    // Every chunk was taken as sent, the step's total growing by it; the last completion sends to the selfie.
    for (step in steps) {
      val chunks = transport.answers(step.stepId, "frames")
      assertTrue(chunks.isNotEmpty(), "frames for ${step.stepId}")
      assertEquals(chunks.runningFold(0) { total, c -> total + c.int("received") }.drop(1), chunks.map { it.int("frames_total") })
      assertTrue(chunks.all { it.int("received") in 1..step.limits.maxFramesPerChunk })
    }
    assertEquals(PacedNext.SELFIE, completed.last().next)
    assertTrue(completed.dropLast(1).all { it.next == PacedNext.STEP || it.next == PacedNext.RESTART })
    if (completed.none { it.next == PacedNext.RESTART }) {
      assertEquals(4, steps.size)
      assertEquals(1, steps.count { it.kind == PacedStepKind.OPEN_MOUTH })
    }
    // The replay turns and blinks, but cannot meet targets drawn after it was made, nor open its mouth.
    assertEquals("FAILED", status.status)
    assertEquals("FAIL", integrator.liveResult(sessionId).obj("checks").string("liveness"))
  }

  @Test
  fun `a production session's head that follows each revealed target live goes through the SDK's paced driver, following at least 3 of its 4 steps and deforming on OPEN_MOUTH`() {
    val applicant = RecordedApplicant(testdata, "grace-hopper", pacedSource = FollowingHead(System.getenv("BIOVERIFY_E2E_HEAD_URL")))
    val sessionId = integrator.createLiveSession(applicant.name)
    val completed = ArrayList<Pair<PacedStep, PacedStepDone>>()
    val listener =
      object : VerificationListener {
        override fun onPacedStep(step: PacedStep, done: PacedStepDone) {
          completed.add(step to done)
        }
      }

    val status = VerificationRunner(CaptureClient(baseUrl, sessionId), applicant, listener).run()

    val liveness = integrator.liveReport(sessionId).obj("checks").obj("liveness")
    val scores = liveness.objects("scores").associateBy { it.string("name") }
    println("paced, following head: ${completed.map { (s, d) -> "${s.kind}(${s.targetYaw},${s.targetPitch},${s.holdMs} ms)->${d.next} ${d.framesTotal} frames" }}; decision ${status.status} ${integrator.liveResult(sessionId).let { "${it.stringOrNull("failure_reason")} ${it.objOrNull("checks")}" }}; liveness ${liveness.string("verdict")}; scores ${scores.values.map { "${it.string("name")}=${it.doubleOrNull("value")}" }}")
    // The API's own test holds this synthetic head to the same: the step-following lines are not calibrated yet (issue 31).
    assertEquals(listOf(PacedNext.STEP, PacedNext.STEP, PacedNext.STEP, PacedNext.SELFIE), completed.map { it.second.next })
    assertTrue(completed.all { it.second.faceFoundRatio >= 0.8 })
    assertTrue(scores.getValue("steps_completed").double("value") >= 3.0, "steps completed: ${scores["steps_completed"]}")
    val deformation = scores.getValue("nonrigid_deformation")
    assertTrue(deformation.double("value") >= deformation.double("threshold"), "non-rigid deformation: $deformation")
  }

  /** The default transport, keeping each answer of the paced routes by step id. */
  private class RecordingTransport : HttpTransport {
    private val inner = UrlConnectionTransport()
    private val recorded = ArrayList<Pair<String, JsonObject>>()

    override fun execute(request: HttpRequest): HttpResponse =
      inner.execute(request).also { response ->
        if (request.url.contains("/liveness/steps/") && response.status == 200) recorded.add(request.url.substringAfter("/liveness/steps/") to JsonObject.parse(response.bodyText()))
      }

    fun answers(stepId: String, route: String): List<JsonObject> = recorded.filter { it.first == "$stepId/$route" }.map { it.second }
  }

  private companion object {
    /** Sandbox sessions pin their one-shot challenge; the chip tests never reach liveness. */
    val ONE_SHOT_CHALLENGE = listOf("TURN_LEFT", "TURN_RIGHT", "BLINK")
  }
}

/** The test's own process, described honestly: a JVM on a build machine, so an emulator, with no root or hooking checks run. */
private object ThisJvm : DeviceFacts {
  override fun emulator() = true

  override fun debuggerAttached() = java.lang.management.ManagementFactory.getRuntimeMXBean().inputArguments.any { it.contains("jdwp") }

  override fun rootedOrJailbroken(): Boolean? = null

  override fun hookingFramework(): Boolean? = null

  override val appId = "dev.bioverify.e2e"
  override val osVersion: String? = System.getProperty("os.version")
}
