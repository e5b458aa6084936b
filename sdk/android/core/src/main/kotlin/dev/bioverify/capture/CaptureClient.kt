package dev.bioverify.capture

import java.io.IOException

/**
 * The capture API of one session (`/v1/capture/{session_id}`), as the hosted page uses it. It takes
 * no API key: the session id handed over by the integrator's server is the capability, and [start]
 * binds the session to this device with the capture token, sent on every later call.
 *
 * Every call either answers the contract's success body or throws [CaptureException].
 */
class CaptureClient(
  baseUrl: String,
  val sessionId: String,
  private val transport: HttpTransport = UrlConnectionTransport(),
  /** A token from an earlier [start] on this device (kept across an app restart), or null. */
  captureToken: String? = null,
) {
  private val base = baseUrl.trimEnd('/') + "/v1/capture/" + sessionId

  @Volatile
  var captureToken: String? = captureToken
    private set

  /** Starts capture (PENDING to IN_PROGRESS) or, with the token of an earlier start, resumes it. */
  fun start(): StartAnswer = StartAnswer.from(call("POST", "/start", null, null)).also { captureToken = it.captureToken }

  fun document(side: DocumentSide, type: DocumentType, image: ByteArray, contentType: String = "image/jpeg"): DocumentAnswer =
    DocumentAnswer.from(call("PUT", "/document/${side.wire}?type=${type.wire}", image, contentType))

  /** The frames in capture order (JPEG, 8 to 60) with their times in ms since the challenge started, increasing. */
  fun liveness(frames: List<ByteArray>, timestampsMs: List<Long>, boundary: String = Multipart.randomBoundary()): LivenessAnswer {
    require(frames.size == timestampsMs.size) { "one timestamp per frame" }
    val multipart = framesMultipart(frames, timestampsMs, boundary)
    return LivenessAnswer.from(call("POST", "/liveness", multipart.encode(), multipart.contentType))
  }

  /**
   * The server-paced challenge (`liveness_mode` `paced`): draws and reveals the next step now. Start
   * its clock when this returns: frame timestamps and the deadline count from the answer's arrival.
   */
  fun revealStep(): PacedStep = PacedStep.from(call("POST", "/liveness/steps", null, null))

  /**
   * One chunk of a paced step's frames, sent as they are captured: 1 to `max_frames_per_chunk` JPEG
   * `frame` parts in capture order and `timestamps`, ms since the reveal was received, increasing
   * within the chunk and across the step's chunks.
   */
  fun sendStepFrames(stepId: String, frames: List<ByteArray>, timestampsMs: List<Long>, boundary: String = Multipart.randomBoundary()): PacedChunkAnswer {
    require(frames.size == timestampsMs.size) { "one timestamp per frame" }
    val multipart = framesMultipart(frames, timestampsMs, boundary)
    return PacedChunkAnswer.from(call("POST", "/liveness/steps/${pathSegment(stepId)}/frames", multipart.encode(), multipart.contentType))
  }

  /** Closes a paced step (idempotent); [PacedStepDone.next] says whether to reveal, restart or take the selfie. */
  fun completeStep(stepId: String): PacedStepDone = PacedStepDone.from(call("POST", "/liveness/steps/${pathSegment(stepId)}/complete", null, null))

  fun selfie(image: ByteArray, contentType: String = "image/jpeg"): SelfieAnswer = SelfieAnswer.from(call("PUT", "/selfie", image, contentType))

  fun chipChallenge(): ChipChallenge = ChipChallenge.from(call("POST", "/chip/challenge", null, null))

  /** Uploads what the chip gave; the answer says only whether it was well-formed and which groups were received. */
  fun chip(data: ChipData): JsonObject = call("PUT", "/document/chip", data.toJson().toByteArray(Charsets.UTF_8), "application/json")

  /** Sends the device's integrity signals (docs/capture-integrity.md); the answer never says how they were judged. */
  fun integrity(signals: IntegritySignals): Boolean =
    call("PUT", "/integrity", signals.toJson().toByteArray(Charsets.UTF_8), "application/json").boolean("recorded")

  /** Ends capture: 202 `{"status": "IN_PROGRESS", "decision": "pending"}`; a second submit answers the same. */
  fun submit(): StatusAnswer = StatusAnswer.from(call("POST", "/submit", null, null))

  /**
   * The session's status; with the token it adds each capture's state ([StatusAnswer.steps]). The
   * server may invalidate the token once the session is decided, so the decision is read without it.
   */
  fun status(withToken: Boolean = true): StatusAnswer = StatusAnswer.from(call("GET", "", null, null, withToken))

  /**
   * Polls [status] until the decision is done or [timeoutMs] passes (then answers the last status).
   * Network failures and `Retry-After` answers are waited out rather than thrown.
   */
  fun awaitDecision(timeoutMs: Long = 120_000, intervalMs: Long = 500, sleep: (Long) -> Unit = { Thread.sleep(it) }, clock: () -> Long = System::currentTimeMillis): StatusAnswer {
    val until = clock() + timeoutMs
    var last: StatusAnswer? = null
    while (true) {
      var wait = intervalMs
      try {
        last = status(withToken = false)
        if (last.isDecided) return last
      } catch (e: CaptureException) {
        if (!e.isRetryable) throw e
        e.retryAfterSeconds?.let { wait = maxOf(wait, it * 1000) }
      }
      if (clock() + wait > until) return last ?: throw CaptureException(ErrorCode.NETWORK, "no status within ${timeoutMs} ms")
      sleep(wait)
    }
  }

  private fun framesMultipart(frames: List<ByteArray>, timestampsMs: List<Long>, boundary: String): Multipart {
    val parts = frames.mapIndexed { i, jpeg -> Part("frame", jpeg, "image/jpeg", "frame-$i.jpg") } + Part("timestamps", Json.write(timestampsMs).toByteArray(Charsets.UTF_8))
    return Multipart(parts, boundary)
  }

  // A step id is the server's opaque string: kept to one path segment whatever it holds.
  private fun pathSegment(id: String) = java.net.URLEncoder.encode(id, "UTF-8").replace("+", "%20")

  private fun call(method: String, path: String, body: ByteArray?, contentType: String?, withToken: Boolean = true): JsonObject {
    val headers = LinkedHashMap<String, String>()
    headers["Accept"] = "application/json"
    if (contentType != null) headers["Content-Type"] = contentType
    if (withToken) captureToken?.let { headers["Authorization"] = "Bearer $it" }
    val response =
      try {
        transport.execute(HttpRequest(method, base + path, headers, body ?: if (method == "POST" || method == "PUT") ByteArray(0) else null))
      } catch (e: IOException) {
        throw CaptureException(ErrorCode.NETWORK, "no answer from the server: ${e.message ?: e.javaClass.simpleName}", cause = e)
      }
    if (response.status !in 200..299) throw CaptureException.fromResponse(response)
    return JsonObject.parse(response.bodyText())
  }
}
