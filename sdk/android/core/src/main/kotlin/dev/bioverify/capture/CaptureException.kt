package dev.bioverify.capture

/** The contract's error codes; [UNKNOWN] for a code a newer server adds. */
enum class ErrorCode {
  UNAUTHORIZED,
  INVALID_KEY_FORMAT,
  FORBIDDEN,
  NOT_FOUND,
  CONFLICT,
  PAYLOAD_TOO_LARGE,
  UNSUPPORTED_MEDIA_TYPE,
  VALIDATION_ERROR,
  IDEMPOTENCY_KEY_REUSED,
  RATE_LIMITED,
  INTERNAL,
  SERVICE_UNAVAILABLE,
  UNKNOWN,

  /** Not from the server: the connection failed or timed out before an answer came. */
  NETWORK,

  /** Not from the server's error shape: the answer was not what the contract says. */
  MALFORMED_RESPONSE,
  ;

  companion object {
    fun of(code: String?): ErrorCode = values().firstOrNull { it.name == code && it != NETWORK && it != MALFORMED_RESPONSE } ?: UNKNOWN
  }
}

/** One field the server refused (`details` of a `VALIDATION_ERROR`, or what a `CONFLICT` names). */
data class ErrorDetail(val field: String, val message: String)

/**
 * Every failure of a capture call: the contract's error shape
 * `{"error": {"code", "message", "details"}, "request_id"}` with its HTTP status, or a network or
 * malformed-answer failure. [retryAfterSeconds] is the `Retry-After` of a 429 or 503.
 */
class CaptureException(
  val code: ErrorCode,
  message: String,
  val httpStatus: Int? = null,
  val details: List<ErrorDetail> = emptyList(),
  val requestId: String? = null,
  val retryAfterSeconds: Long? = null,
  cause: Throwable? = null,
) : Exception(message, cause) {
  /** Whether the same call may succeed later unchanged: a network failure, a rate limit or an unavailable service. */
  val isRetryable: Boolean
    get() = code == ErrorCode.NETWORK || code == ErrorCode.RATE_LIMITED || code == ErrorCode.SERVICE_UNAVAILABLE

  override fun toString(): String = "CaptureException($code${httpStatus?.let { ", HTTP $it" } ?: ""}: $message)"

  companion object {
    fun malformed(why: String) = CaptureException(ErrorCode.MALFORMED_RESPONSE, why)

    /** Maps an error answer to the exception, whatever its body (a proxy's HTML page included). */
    fun fromResponse(response: HttpResponse): CaptureException {
      val retryAfter = response.header("Retry-After")?.trim()?.toLongOrNull()
      val body =
        try {
          JsonObject.parse(response.bodyText())
        } catch (e: CaptureException) {
          null
        }
      val error = body?.objOrNull("error")
      if (error == null) {
        return CaptureException(
          code = statusCode(response.status),
          message = "HTTP ${response.status} without the contract's error body",
          httpStatus = response.status,
          requestId = response.header("X-Request-Id"),
          retryAfterSeconds = retryAfter,
        )
      }
      return CaptureException(
        code = ErrorCode.of(error.stringOrNull("code")),
        message = error.stringOrNull("message") ?: "HTTP ${response.status}",
        httpStatus = response.status,
        details = error.objects("details").map { ErrorDetail(it.stringOrNull("field") ?: "", it.stringOrNull("message") ?: "") },
        requestId = body.stringOrNull("request_id") ?: response.header("X-Request-Id"),
        retryAfterSeconds = retryAfter,
      )
    }

    private fun statusCode(status: Int): ErrorCode =
      when (status) {
        401 -> ErrorCode.UNAUTHORIZED
        403 -> ErrorCode.FORBIDDEN
        404 -> ErrorCode.NOT_FOUND
        409 -> ErrorCode.CONFLICT
        413 -> ErrorCode.PAYLOAD_TOO_LARGE
        415 -> ErrorCode.UNSUPPORTED_MEDIA_TYPE
        422 -> ErrorCode.VALIDATION_ERROR
        429 -> ErrorCode.RATE_LIMITED
        503 -> ErrorCode.SERVICE_UNAVAILABLE
        in 500..599 -> ErrorCode.INTERNAL
        else -> ErrorCode.UNKNOWN
      }
  }
}
