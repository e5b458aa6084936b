package dev.bioverify.android

import android.app.Activity
import android.content.Context
import android.content.Intent
import android.net.Uri

/** How a verification ended for the app: the session's status once decided, or why it did not finish. */
data class VerificationResult(val sessionId: String, val status: String?, val redirectUrl: String?, val error: String?) {
  /** Decided (VERIFIED or FAILED): the integrator's server reads the result with its API key. */
  val isDecided: Boolean
    get() = status == "VERIFIED" || status == "FAILED"

  fun toIntent(): Intent =
    Intent().putExtra(EXTRA_SESSION_ID, sessionId).putExtra(EXTRA_STATUS, status).putExtra(EXTRA_REDIRECT_URL, redirectUrl).putExtra(EXTRA_ERROR, error)

  companion object {
    const val EXTRA_SESSION_ID = "dev.bioverify.SESSION_ID"
    const val EXTRA_STATUS = "dev.bioverify.STATUS"
    const val EXTRA_REDIRECT_URL = "dev.bioverify.REDIRECT_URL"
    const val EXTRA_ERROR = "dev.bioverify.ERROR"

    fun from(data: Intent?): VerificationResult? {
      val id = data?.getStringExtra(EXTRA_SESSION_ID) ?: return null
      return VerificationResult(id, data.getStringExtra(EXTRA_STATUS), data.getStringExtra(EXTRA_REDIRECT_URL), data.getStringExtra(EXTRA_ERROR))
    }
  }
}

/**
 * The entry points. The integrator's server creates the session with its API key and hands the app
 * the `session_id` and `verification_url` (never the key); the app then starts one of these
 * Activities with `startActivityForResult` and reads [VerificationResult.from] in `onActivityResult`.
 */
object BioverifyVerification {
  const val EXTRA_BASE_URL = "dev.bioverify.BASE_URL"
  const val EXTRA_VERIFICATION_URL = "dev.bioverify.VERIFICATION_URL"
  const val EXTRA_RETURN_URL = "dev.bioverify.RETURN_URL"
  const val EXTRA_READ_CHIP = "dev.bioverify.READ_CHIP"

  /** The native flow (camera2, NFC chip when [readChip] and the device has it on). */
  fun nativeFlow(context: Context, baseUrl: String, sessionId: String, readChip: Boolean = true): Intent =
    Intent(context, VerificationActivity::class.java)
      .putExtra(EXTRA_BASE_URL, baseUrl)
      .putExtra(VerificationResult.EXTRA_SESSION_ID, sessionId)
      .putExtra(EXTRA_READ_CHIP, readChip)

  /** The hosted page in a WebView: for devices without a usable camera, or apps that prefer it. */
  fun webFlow(context: Context, verificationUrl: String, returnUrl: String): Intent =
    Intent(context, WebVerificationActivity::class.java).putExtra(EXTRA_VERIFICATION_URL, verificationUrl).putExtra(EXTRA_RETURN_URL, returnUrl)

  /** The native flow where the device can capture, else the WebView fallback. */
  fun bestFlow(activity: Activity, baseUrl: String, sessionId: String, verificationUrl: String, returnUrl: String): Intent =
    if (DeviceReadiness.of(activity).hasCamera && activity.checkSelfPermission(android.Manifest.permission.CAMERA) == android.content.pm.PackageManager.PERMISSION_GRANTED) {
      nativeFlow(activity, baseUrl, sessionId)
    } else {
      webFlow(activity, verificationUrl, returnUrl)
    }
}

/**
 * The hosted page finishes by sending the applicant to the session's `return_url` with `session_id`
 * and `status` appended: that navigation is the completion the WebView fallback reports.
 */
object CompletionUrl {
  fun parse(url: String, returnUrl: String): VerificationResult? {
    val target = Uri.parse(url)
    val expected = Uri.parse(returnUrl)
    if (target.scheme != expected.scheme || target.host != expected.host || target.port != expected.port || target.path != expected.path) return null
    val sessionId = target.getQueryParameter("session_id") ?: return null
    return VerificationResult(sessionId, target.getQueryParameter("status"), url, null)
  }
}
