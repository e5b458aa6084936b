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

/**
 * What a client does about an error, as sdk/contract-vectors/errors.json maps it: the same table in
 * every SDK. [SERVER] is any 5xx; [UNEXPECTED] any other status whose body is not the contract's.
 */
enum class ErrorKind(val wire: String) {
  UNAUTHORIZED("unauthorized"),
  FORBIDDEN("forbidden"),
  NOT_FOUND("not_found"),
  CONFLICT("conflict"),
  PAYLOAD_TOO_LARGE("payload_too_large"),
  UNSUPPORTED_MEDIA_TYPE("unsupported_media_type"),
  VALIDATION("validation"),
  RATE_LIMITED("rate_limited"),
  SERVER("server"),
  UNEXPECTED("unexpected"),
  NETWORK("network"),
  MALFORMED_RESPONSE("malformed_response"),
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
  val kind: ErrorKind
    get() =
      when (code) {
        ErrorCode.UNAUTHORIZED, ErrorCode.INVALID_KEY_FORMAT -> ErrorKind.UNAUTHORIZED
        ErrorCode.FORBIDDEN -> ErrorKind.FORBIDDEN
        ErrorCode.NOT_FOUND -> ErrorKind.NOT_FOUND
        ErrorCode.CONFLICT -> ErrorKind.CONFLICT
        ErrorCode.PAYLOAD_TOO_LARGE -> ErrorKind.PAYLOAD_TOO_LARGE
        ErrorCode.UNSUPPORTED_MEDIA_TYPE -> ErrorKind.UNSUPPORTED_MEDIA_TYPE
        ErrorCode.VALIDATION_ERROR, ErrorCode.IDEMPOTENCY_KEY_REUSED -> ErrorKind.VALIDATION
        ErrorCode.RATE_LIMITED -> ErrorKind.RATE_LIMITED
        ErrorCode.INTERNAL, ErrorCode.SERVICE_UNAVAILABLE -> ErrorKind.SERVER
        ErrorCode.NETWORK -> ErrorKind.NETWORK
        ErrorCode.MALFORMED_RESPONSE -> ErrorKind.MALFORMED_RESPONSE
        ErrorCode.UNKNOWN -> if (httpStatus != null && httpStatus in 500..599) ErrorKind.SERVER else ErrorKind.UNEXPECTED
      }

  /** Whether the same call may succeed later unchanged: a network failure, a rate limit or an unavailable service. */
  val isRetryable: Boolean
    get() = code == ErrorCode.NETWORK || code == ErrorCode.RATE_LIMITED || httpStatus == 503

  override fun toString(): String = "CaptureException($code${httpStatus?.let { ", HTTP $it" } ?: ""}: $message)"

  companion object {
    /** `Retry-After` as whole seconds: delta-seconds, or an HTTP-date as the seconds from [nowMs] (at least 0); null when absent or unreadable. */
    fun retryAfterSeconds(header: String?, nowMs: Long): Long? {
      val value = header?.trim() ?: return null
      value.toLongOrNull()?.let { return if (it >= 0) it else null }
      return try {
        val format = java.text.SimpleDateFormat("EEE, dd MMM yyyy HH:mm:ss zzz", java.util.Locale.US)
        format.timeZone = java.util.TimeZone.getTimeZone("GMT")
        maxOf(0L, (format.parse(value)!!.time - nowMs + 999) / 1000)
      } catch (e: java.text.ParseException) {
        null
      }
    }

    fun malformed(why: String) = CaptureException(ErrorCode.MALFORMED_RESPONSE, why)

    /** Maps an error answer to the exception, whatever its body (a proxy's HTML page included). */
    fun fromResponse(response: HttpResponse): CaptureException {
      val retryAfter = retryAfterSeconds(response.header("Retry-After"), System.currentTimeMillis())
      val body =
        try {
          JsonObject.parse(response.bodyText())
        } catch (e: CaptureException) {
          null
        }
      val error = body?.objOrNull("error")
      if (error == null) {
        return CaptureException(
          code = ErrorCode.UNKNOWN,
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

  }
}
