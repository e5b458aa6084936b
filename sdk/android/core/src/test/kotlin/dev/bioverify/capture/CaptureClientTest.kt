package dev.bioverify.capture

import com.sun.net.httpserver.HttpServer
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.io.IOException
import java.net.InetSocketAddress

/** A transport that records each request and answers from a script, so the client's HTTP use is visible. */
class ScriptedTransport(private val answers: MutableList<HttpResponse>) : HttpTransport {
  val requests = ArrayList<HttpRequest>()

  override fun execute(request: HttpRequest): HttpResponse {
    requests.add(request)
    return answers.removeAt(0)
  }
}

fun json(status: Int, body: String, headers: Map<String, String> = emptyMap()) =
  HttpResponse(status, headers + ("Content-Type" to "application/json"), body.toByteArray())

const val START = """{"capture_token":"tok_abc","challenge":["TURN_LEFT","TURN_RIGHT","BLINK"],"document_types":["passport","id_card"],"expires_at":"2026-11-27T06:00:00.000Z","locale":"fr"}"""

class CaptureClientTest {
  @Test
  fun `start sends no token, then every later call carries the token it answered`() {
    val transport =
      ScriptedTransport(mutableListOf(json(200, START), json(200, """{"face_found":true,"retake":false,"reason":null,"attempts_left":2}""")))
    val client = CaptureClient("https://verify.example.com/", "ses_1", transport)

    val started = client.start()
    client.selfie(byteArrayOf(1, 2, 3))

    assertEquals(listOf(ChallengeStep.TURN_LEFT, ChallengeStep.TURN_RIGHT, ChallengeStep.BLINK), started.challenge)
    assertEquals(listOf(DocumentType.PASSPORT, DocumentType.ID_CARD), started.documentTypes)
    assertEquals("https://verify.example.com/v1/capture/ses_1/start", transport.requests[0].url)
    assertNull(transport.requests[0].headers["Authorization"])
    assertEquals("PUT", transport.requests[1].method)
    assertEquals("Bearer tok_abc", transport.requests[1].headers["Authorization"])
    assertEquals("image/jpeg", transport.requests[1].headers["Content-Type"])
    assertArrayEquals(byteArrayOf(1, 2, 3), transport.requests[1].body)
  }

  @Test
  fun `a document side goes to its path with the type as a query and its answer is typed`() {
    val transport =
      ScriptedTransport(mutableListOf(json(200, """{"side":"front","readable":false,"reason":"DOCUMENT_UNREADABLE","retake":true,"attempts_left":1,"next":null}""")))
    val answer = CaptureClient("http://h", "ses_2", transport, "tok").document(DocumentSide.FRONT, DocumentType.ID_CARD, byteArrayOf(9))
    assertEquals("http://h/v1/capture/ses_2/document/front?type=id_card", transport.requests[0].url)
    assertEquals(DocumentAnswer(DocumentSide.FRONT, false, "DOCUMENT_UNREADABLE", true, 1, null), answer)
  }

  @Test
  fun `the contract's error body becomes a typed exception with details, request id and Retry-After`() {
    val body =
      """{"error":{"code":"VALIDATION_ERROR","message":"bad frames","details":[{"field":"timestamps","message":"must increase"}]},"request_id":"req_9"}"""
    val transport = ScriptedTransport(mutableListOf(json(422, body), json(429, """{"error":{"code":"RATE_LIMITED","message":"slow down"},"request_id":"r"}""", mapOf("Retry-After" to "7"))))
    val client = CaptureClient("http://h", "ses_3", transport, "tok")

    val invalid = assertThrows<CaptureException> { client.submit() }
    assertEquals(ErrorCode.VALIDATION_ERROR, invalid.code)
    assertEquals(422, invalid.httpStatus)
    assertEquals(listOf(ErrorDetail("timestamps", "must increase")), invalid.details)
    assertEquals("req_9", invalid.requestId)
    assertFalse(invalid.isRetryable)

    val limited = assertThrows<CaptureException> { client.submit() }
    assertEquals(ErrorCode.RATE_LIMITED, limited.code)
    assertEquals(7L, limited.retryAfterSeconds)
    assertTrue(limited.isRetryable)
  }

  @Test
  fun `an answer without the error shape still maps by status, and a failed connection is a NETWORK error`() {
    val proxyPage = HttpResponse(503, mapOf("X-Request-Id" to "edge-1"), "<html>down</html>".toByteArray())
    val client = CaptureClient("http://h", "ses_4", ScriptedTransport(mutableListOf(proxyPage)))
    val down = assertThrows<CaptureException> { client.status() }
    assertEquals(ErrorKind.SERVER, down.kind)
    assertTrue(down.isRetryable)
    assertEquals("edge-1", down.requestId)

    val offline = CaptureClient("http://h", "ses_4", HttpTransport { throw IOException("timeout") })
    assertEquals(ErrorCode.NETWORK, assertThrows<CaptureException> { offline.status() }.code)
  }

  @Test
  fun `a success body that is not the contract's is a MALFORMED_RESPONSE, not a crash`() {
    val client = CaptureClient("http://h", "ses_5", ScriptedTransport(mutableListOf(json(200, """{"status":"IN_PROGRESS"}"""))))
    assertEquals(ErrorCode.MALFORMED_RESPONSE, assertThrows<CaptureException> { client.status() }.code)
  }

  @Test
  fun `awaitDecision waits out Retry-After and network failures until the decision is done`() {
    val transport =
      ScriptedTransport(
        mutableListOf(
          json(200, """{"status":"IN_PROGRESS","decision":"pending","redirect_url":null}"""),
          json(503, """{"error":{"code":"SERVICE_UNAVAILABLE","message":"x"},"request_id":"r"}""", mapOf("Retry-After" to "2")),
          json(200, """{"status":"VERIFIED","decision":"done","redirect_url":"https://e/done?session_id=ses_6&status=VERIFIED"}"""),
        ),
      )
    var now = 0L
    val slept = ArrayList<Long>()
    val decided = CaptureClient("http://h", "ses_6", transport, "tok").awaitDecision(timeoutMs = 60_000, intervalMs = 500, sleep = { slept.add(it); now += it }, clock = { now })
    assertEquals("VERIFIED", decided.status)
    assertEquals(listOf(500L, 2_000L), slept)
    // A decided session may have invalidated the token: the decision is polled without it.
    assertTrue(transport.requests.all { it.headers["Authorization"] == null })
  }

  @Test
  fun `the chip upload is JSON of base64 files with the active authentication`() {
    val transport = ScriptedTransport(mutableListOf(json(200, """{"challenge":"AQIDBAUGBwg=","expires_at":"t"}"""), json(200, """{"well_formed":true}""")))
    val client = CaptureClient("http://h", "ses_7", transport, "tok")
    val challenge = client.chipChallenge()
    assertArrayEquals(byteArrayOf(1, 2, 3, 4, 5, 6, 7, 8), challenge.challenge)
    client.chip(ChipData(byteArrayOf(0x77), byteArrayOf(0x61), byteArrayOf(0x75), dg15 = byteArrayOf(0x6f), activeAuthentication = ActiveAuthentication(challenge.challenge, byteArrayOf(-1))))
    assertEquals("http://h/v1/capture/ses_7/document/chip", transport.requests[1].url)
    assertEquals(
      """{"sod":"dw==","dg1":"YQ==","dg2":"dQ==","dg15":"bw==","active_authentication":{"challenge":"AQIDBAUGBwg=","signature":"/w=="}}""",
      String(transport.requests[1].body!!),
    )
  }

  @Test
  fun `the default transport speaks real HTTP - method, headers, body and error stream`() {
    val server = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)
    var seen = ""
    server.createContext("/v1/capture/ses_8/selfie") { exchange ->
      seen = exchange.requestMethod + " " + exchange.requestHeaders.getFirst("Authorization") + " " + exchange.requestBody.readBytes().size
      val body = """{"error":{"code":"PAYLOAD_TOO_LARGE","message":"too big"},"request_id":"req_big"}""".toByteArray()
      exchange.responseHeaders.add("Content-Type", "application/json")
      exchange.sendResponseHeaders(413, body.size.toLong())
      exchange.responseBody.use { it.write(body) }
    }
    server.start()
    try {
      val client = CaptureClient("http://127.0.0.1:${server.address.port}", "ses_8", UrlConnectionTransport(), "tok")
      val error = assertThrows<CaptureException> { client.selfie(ByteArray(1000)) }
      assertEquals(ErrorCode.PAYLOAD_TOO_LARGE, error.code)
      assertEquals("req_big", error.requestId)
      assertEquals("PUT Bearer tok 1000", seen)
    } finally {
      server.stop(0)
    }
  }
}
