package dev.bioverify.capture

import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory
import java.io.File

/**
 * The vectors the server's tests replay against the real stack (sdk/contract-vectors, README there):
 * the same error answers and multipart bytes must come out of this client the same way, so an API
 * change breaks this SDK's build too.
 */
class ContractVectorsTest {
  private val dir = File("../../contract-vectors")

  @Suppress("UNCHECKED_CAST")
  private fun load(name: String) = JsonObject(Json.parse(File(dir, name).readText()) as Map<String, Any?>)

  @TestFactory
  fun `each error the server answers maps to the vector's client error, with its request id, details and Retry-After`(): List<DynamicTest> {
    val cases = load("errors.json").objects("cases")
    assertTrue(cases.size >= 10, "errors.json lists the errors")
    return cases.map { case ->
      DynamicTest.dynamicTest(case.string("name")) {
        val example = case.obj("example")
        val headers = example.obj("headers").map.mapValues { it.value.toString() }
        val body = Json.write(example.map["body"]).toByteArray()
        val transport = ScriptedTransport(mutableListOf(HttpResponse(example.int("status"), headers, body)))
        val error = org.junit.jupiter.api.assertThrows<CaptureException> { CaptureClient("http://h", "ses_x", transport, "tok").status() }
        val expected = case.obj("client_error")
        assertEquals(expected.string("kind"), error.kind.wire)
        if (expected.has("retry_after_s")) assertEquals(expected.doubleOrNull("retry_after_s")?.toLong(), error.retryAfterSeconds)
        assertEquals(example.int("status"), error.httpStatus)
        val answered = example.obj("body")
        assertEquals(answered.string("request_id"), error.requestId)
        assertEquals(answered.obj("error").string("message"), error.message)
        assertEquals(answered.obj("error").string("code"), error.code.name)
        assertEquals(answered.obj("error").objects("details").map { ErrorDetail(it.string("field"), it.string("message")) }, error.details)
      }
    }
  }

  @Test
  fun `the mapping table names a client error for every code this client knows, and the same one`() {
    for (row in load("errors.json").objects("mapping")) {
      val error = CaptureException(ErrorCode.of(row.string("code")), "m", httpStatus = row.int("status"))
      assertEquals(row.string("client_error"), error.kind.wire, row.string("code"))
    }
    assertEquals(ErrorKind.SERVER, CaptureException.fromResponse(HttpResponse(502, emptyMap(), "<html/>".toByteArray())).kind)
    assertEquals(ErrorKind.UNEXPECTED, CaptureException.fromResponse(HttpResponse(400, emptyMap(), "nope".toByteArray())).kind)
  }

  @Test
  fun `Retry-After is whole seconds, an HTTP-date counts from now, and anything else is null`() {
    assertEquals(1L, CaptureException.retryAfterSeconds("1", 0))
    assertEquals(30L, CaptureException.retryAfterSeconds("Thu, 01 Jan 1970 00:00:30 GMT", 0))
    assertEquals(0L, CaptureException.retryAfterSeconds("Thu, 01 Jan 1970 00:00:30 GMT", 60_000))
    assertEquals(null, CaptureException.retryAfterSeconds("soon", 0))
    assertEquals(null, CaptureException.retryAfterSeconds(null, 0))
  }

  @TestFactory
  fun `the liveness upload is framed byte for byte as multipart json's accepted vectors`(): List<DynamicTest> =
    load("multipart.json").objects("vectors").filter { it.string("expect") == "accepted" }.map { vector ->
      DynamicTest.dynamicTest(vector.string("name")) {
        val frames = vector.strings("frames_base64").map { Base64.decode(it) }
        val timestamps = (vector.map["timestamps"] as List<*>).map { (it as Number).toLong() }
        val transport = ScriptedTransport(mutableListOf(HttpResponse(200, emptyMap(), """{"received":8,"face_found_ratio":1,"retake":false,"attempts_left":2}""".toByteArray())))
        CaptureClient("http://h", "ses_x", transport, "tok").liveness(frames, timestamps, boundary = vector.string("boundary"))
        assertEquals(vector.string("content_type"), transport.requests[0].headers["Content-Type"])
        assertArrayEquals(Base64.decode(vector.string("body_base64")), transport.requests[0].body)
      }
    }
}
