package dev.bioverify.android

import android.app.Activity
import android.content.Intent
import org.robolectric.RuntimeEnvironment
import dev.bioverify.capture.CaptureStep
import dev.bioverify.capture.CaptureFlow
import dev.bioverify.capture.ChallengeStep
import dev.bioverify.capture.PacedLimits
import dev.bioverify.capture.PacedStep
import dev.bioverify.capture.PacedStepKind
import org.junit.Assert.assertEquals
import org.junit.Assert.assertNotEquals
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.Shadows.shadowOf

@RunWith(RobolectricTestRunner::class)
class FlowScreensTest {
  @Test
  fun `English and French cover the same words, and every step and challenge has one`() {
    assertEquals(FlowStrings.keys("en"), FlowStrings.keys("fr"))
    val en = FlowStrings.forLocale("en")
    val fr = FlowStrings.forLocale("fr-FR")
    for (step in CaptureStep.values()) assertNotEquals(en.step(step), fr.step(step))
    for (step in ChallengeStep.values()) assertNotEquals(en.challenge(step), fr.challenge(step))
    assertEquals("Tournez la tête à gauche", fr.challenge(ChallengeStep.TURN_LEFT))
    assertEquals(en["retake.generic"], en.retake("A_REASON_FROM_A_NEWER_SERVER"))
  }

  @Test
  fun `a paced step is prompted by the applicant's own side, its height from 6 degrees, or the open mouth`() {
    val limits = PacedLimits(10, 60, 12, 2500, 600)
    fun step(kind: PacedStepKind, yaw: Double, pitch: Double) = PacedStep("pch", "stp", 0, 4, kind, yaw, pitch, 8.0, 1000, "", "", 5500, limits, 2)
    val en = FlowStrings.forLocale("en")
    val fr = FlowStrings.forLocale("fr")
    assertEquals("Turn your head to your left and up and hold it there", en.paced(step(PacedStepKind.HOLD_POSE, 21.4, 6.2)))
    assertEquals("Turn your head to your right and hold it there", en.paced(step(PacedStepKind.HOLD_POSE, -14.0, 3.0)))
    assertEquals("Tournez la tête vers votre droite et vers le bas et gardez la pose", fr.paced(step(PacedStepKind.HOLD_POSE, -20.0, -9.0)))
    assertEquals("Regardez la caméra et ouvrez grand la bouche", fr.paced(step(PacedStepKind.OPEN_MOUTH, 0.0, 0.0)))
    assertNotEquals(en["retake.generic"], en.retake(CaptureFlow.PACED_RESTART))
  }

  @Test
  fun `the return URL with session_id and status is the hosted page's completion, any other URL is not`() {
    val done = CompletionUrl.parse("https://shop.example/done?order=1&session_id=ses_abc&status=VERIFIED", "https://shop.example/done?order=1")
    assertEquals(VerificationResult("ses_abc", "VERIFIED", "https://shop.example/done?order=1&session_id=ses_abc&status=VERIFIED", null), done)
    assertNull(CompletionUrl.parse("https://shop.example/other?session_id=ses_abc&status=VERIFIED", "https://shop.example/done"))
    assertNull(CompletionUrl.parse("https://evil.example/done?session_id=ses_abc&status=VERIFIED", "https://shop.example/done"))
    assertNull(CompletionUrl.parse("https://verify.example/v/ses_abc", "https://shop.example/done"))
  }

  @Test
  fun `the WebView fallback opens the verification URL and finishes with the result at the return URL`() {
    val intent = BioverifyVerification.webFlow(RuntimeEnvironment.getApplication(), "https://verify.example/v/ses_abc", "https://shop.example/done")
    val controller = Robolectric.buildActivity(WebVerificationActivity::class.java, intent).setup()
    val activity = controller.get()
    assertEquals("https://verify.example/v/ses_abc", shadowOf(activity.webView).lastLoadedUrl)
    assertTrue(activity.webView.settings.javaScriptEnabled)

    assertEquals(false, activity.complete("https://verify.example/v/ses_abc/next", "https://shop.example/done"))
    assertEquals(true, activity.complete("https://shop.example/done?session_id=ses_abc&status=FAILED", "https://shop.example/done"))
    assertTrue(activity.isFinishing)
    assertEquals(Activity.RESULT_OK, shadowOf(activity).resultCode)
    val result = VerificationResult.from(shadowOf(activity).resultIntent)
    assertEquals("FAILED", result?.status)
    assertEquals(true, result?.isDecided)
  }

  @Test
  fun `the native flow's intent carries the base URL and the session, never an API key`() {
    val intent: Intent = BioverifyVerification.nativeFlow(RuntimeEnvironment.getApplication(), "https://verify.example", "ses_abc")
    assertEquals(VerificationActivity::class.java.name, intent.component?.className)
    assertEquals("https://verify.example", intent.getStringExtra(BioverifyVerification.EXTRA_BASE_URL))
    assertEquals("ses_abc", intent.getStringExtra(VerificationResult.EXTRA_SESSION_ID))
    assertTrue(intent.extras!!.keySet().none { it.contains("KEY", ignoreCase = true) })
  }
}
