package dev.bioverify.android

import android.annotation.SuppressLint
import android.app.Activity
import android.os.Bundle
import android.webkit.PermissionRequest
import android.webkit.WebChromeClient
import android.webkit.WebResourceRequest
import android.webkit.WebView
import android.webkit.WebViewClient

/**
 * The WebView fallback: opens the session's `verification_url` (the hosted page does the whole
 * capture with the browser's camera) and finishes with the [VerificationResult] when the page
 * navigates to the `return_url`.
 */
class WebVerificationActivity : Activity() {
  lateinit var webView: WebView
    private set

  @SuppressLint("SetJavaScriptEnabled")
  override fun onCreate(savedInstanceState: Bundle?) {
    super.onCreate(savedInstanceState)
    val url = intent.getStringExtra(BioverifyVerification.EXTRA_VERIFICATION_URL) ?: return finish()
    val returnUrl = intent.getStringExtra(BioverifyVerification.EXTRA_RETURN_URL) ?: return finish()
    webView = WebView(this)
    webView.settings.javaScriptEnabled = true
    webView.settings.domStorageEnabled = true
    webView.settings.mediaPlaybackRequiresUserGesture = false
    webView.webChromeClient =
      object : WebChromeClient() {
        // The page asks for the camera through getUserMedia; the app already holds the CAMERA permission.
        override fun onPermissionRequest(request: PermissionRequest) = request.grant(arrayOf(PermissionRequest.RESOURCE_VIDEO_CAPTURE))
      }
    webView.webViewClient =
      object : WebViewClient() {
        override fun shouldOverrideUrlLoading(view: WebView, request: WebResourceRequest): Boolean = complete(request.url.toString(), returnUrl)
      }
    setContentView(webView)
    webView.loadUrl(url)
  }

  /** Finishes with the result when [url] is the return URL; answers whether the navigation was taken over. */
  fun complete(url: String, returnUrl: String): Boolean {
    val result = CompletionUrl.parse(url, returnUrl) ?: return false
    setResult(RESULT_OK, result.toIntent())
    finish()
    return true
  }
}
