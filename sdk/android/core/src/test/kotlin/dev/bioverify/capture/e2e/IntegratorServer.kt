package dev.bioverify.capture.e2e

import dev.bioverify.capture.HttpRequest
import dev.bioverify.capture.Json
import dev.bioverify.capture.JsonObject
import dev.bioverify.capture.UrlConnectionTransport

/**
 * The integrator's server in the end-to-end test: it holds the API key, creates the session the app
 * is handed, and reads the result and the evidence report over REST. The SDK itself never sees the key.
 */
class IntegratorServer(private val baseUrl: String, private val apiKey: String, private val webhookUrl: String, private val liveApiKey: String? = null) {
  private val transport = UrlConnectionTransport()

  /** A sandbox session with the challenge pinned to what the prerecorded frames perform. */
  fun createSession(expectedName: String, challenge: List<String>): String {
    val body =
      mapOf(
        "return_url" to "https://example.com/done",
        "webhook_url" to webhookUrl,
        "expected_name" to expectedName,
        "sandbox" to mapOf("liveness_challenge" to challenge),
      )
    val (status, answer) = call("POST", "/v1/sessions", Json.write(body))
    check(status == 201) { "session creation answered $status: $answer" }
    return answer.string("session_id")
  }

  /**
   * A production session (the live key): its liveness is paced. Production webhooks must be https;
   * this one leads nowhere, and the stack allows private addresses for it.
   */
  fun createLiveSession(expectedName: String): String {
    val body = mapOf("return_url" to "https://example.com/done", "webhook_url" to "https://127.0.0.1:9/hook", "expected_name" to expectedName)
    val (status, answer) = call("POST", "/v1/sessions", Json.write(body), checkNotNull(liveApiKey) { "no live API key" })
    check(status == 201) { "session creation answered $status: $answer" }
    return answer.string("session_id")
  }

  fun result(sessionId: String, key: String = apiKey): JsonObject = get("/v1/sessions/$sessionId/result", key)

  fun report(sessionId: String, key: String = apiKey): JsonObject = get("/v1/sessions/$sessionId/report", key)

  fun liveResult(sessionId: String): JsonObject = result(sessionId, liveApiKey!!)

  fun liveReport(sessionId: String): JsonObject = report(sessionId, liveApiKey!!)

  private fun get(path: String, key: String): JsonObject {
    val (status, answer) = call("GET", path, null, key)
    check(status == 200) { "GET $path answered $status: $answer" }
    return answer
  }

  private fun call(method: String, path: String, json: String?, key: String = apiKey): Pair<Int, JsonObject> {
    val headers = mutableMapOf("X-Api-Key" to key, "Accept" to "application/json")
    if (json != null) headers["Content-Type"] = "application/json"
    val response = transport.execute(HttpRequest(method, baseUrl.trimEnd('/') + path, headers, json?.toByteArray()))
    return response.status to JsonObject.parse(response.bodyText())
  }
}
