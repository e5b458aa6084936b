package dev.bioverify.capture.e2e

import dev.bioverify.capture.CaptureClient
import dev.bioverify.capture.CaptureStep
import dev.bioverify.capture.DocumentSide
import dev.bioverify.capture.VerificationListener
import dev.bioverify.capture.VerificationRunner
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable
import java.io.File

/**
 * The core drives whole sandbox verifications against the real stack (API, worker, inference on the
 * real models, FerretDB, Redis) that sdk/android/android-sdk.test.ts starts, which also checks
 * these tests ran rather than being skipped. Run alone, they are skipped: they need that stack.
 */
@EnabledIfEnvironmentVariable(named = "BIOVERIFY_E2E_BASE_URL", matches = "https?://.+")
class EndToEndVerificationTest {
  private val baseUrl = System.getenv("BIOVERIFY_E2E_BASE_URL")
  private val integrator = IntegratorServer(baseUrl, System.getenv("BIOVERIFY_E2E_API_KEY"), System.getenv("BIOVERIFY_E2E_WEBHOOK_URL"))
  private val testdata = File(System.getenv("BIOVERIFY_E2E_TESTDATA"))

  @Test
  fun `a genuine applicant's passport, challenge and selfie are VERIFIED, with the report to show for it`() {
    val applicant = RecordedApplicant(testdata, "astronaut")
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
}
